import { NOTE_STATUS_LABELS, type TNoteStatus } from '#domain/notes';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/utils.ts';

/** Spec section 4: draft gray, submitted_to_scribe blue, reviewed_by_scribe yellow, finalized green, submitted_to_admin purple. */
export const NOTE_STATUS_STYLES: Record<TNoteStatus, string> = {
  draft: 'bg-slate-100 text-slate-800',
  submitted_to_scribe: 'bg-blue-100 text-blue-800',
  reviewed_by_scribe: 'bg-yellow-100 text-yellow-900',
  finalized: 'bg-green-100 text-green-800',
  submitted_to_admin: 'bg-purple-100 text-purple-800',
};

export function NoteStatusBadge({ status, className }: { status: TNoteStatus; className?: string }) {
  return (
    <Badge data-testid="note-status" data-status={status} className={cn('border-transparent', NOTE_STATUS_STYLES[status], className)}>
      {NOTE_STATUS_LABELS[status]}
    </Badge>
  );
}
