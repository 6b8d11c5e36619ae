import { ArrowDown, ArrowRight } from 'lucide-react';
import { Fragment } from 'react';
import type { TNoteStatus } from '#domain/notes';
import { CAPABILITIES } from '#domain/permissions';
import { NOTE_WORKFLOW } from '#domain/workflows';
import { useNoteStatusCounts } from '../../api/notes/notes.ts';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { roleName } from './note-format.ts';
import { NoteStatusBadge } from './note-status-badge.tsx';

/** Spec section 2: the stages the Workflow tab illustrates, in order. */
const STAGES: { status: TNoteStatus; title: string; text: string }[] = [
  { status: 'draft', title: 'Draft', text: 'The note is written and saved, not yet shared for review.' },
  { status: 'submitted_to_scribe', title: 'Submitted', text: 'Waiting for a scribe to review it. The scribe may edit it while reviewing.' },
  { status: 'reviewed_by_scribe', title: 'Reviewed', text: 'Reviewed by a scribe and waiting to be finalized.' },
  { status: 'finalized', title: 'Finalized', text: 'Locked. Only an admin may amend it, giving a reason; the earlier text stays in its history.' },
  {
    status: 'submitted_to_admin',
    title: 'Submitted to Admin',
    text: 'Handed on to administration, outside the review flow. This clinic does not use it: the review ends at Finalized.',
  },
];

/** Who moves a note into a stage, and with which button, from the one workflow table. */
function howReached(status: TNoteStatus): string | null {
  if (status === NOTE_WORKFLOW.initial) return `Create New Note · ${CAPABILITIES['notes.create'].map(roleName).join(', ')}`;
  const moves = NOTE_WORKFLOW.moves.filter((move) => move.to === status);
  if (moves.length === 0) return null;
  return moves.map((move) => `${move.label} · ${move.roles.map(roleName).join(', ')}`).join('; ');
}

/**
 * The note workflow drawn as its stages, each with what it means, who moves a note into it, and
 * how many notes this user can see there now (for one patient when the screen is filtered).
 */
export function WorkflowTab({ patientId, active }: { patientId: string | undefined; active: boolean }) {
  const counts = useNoteStatusCounts(
    STAGES.map((stage) => stage.status),
    patientId,
    active,
  );
  return (
    <section aria-labelledby="workflow-heading">
      <h2 id="workflow-heading" className="mb-1 text-lg font-semibold text-slate-900">
        Note workflow
      </h2>
      <p className="mb-4 text-sm text-slate-600">
        Every note moves through these stages. The numbers are the notes you can see in each{patientId ? ' for this patient' : ''}.
      </p>
      <ol className="flex flex-col items-stretch gap-2 lg:flex-row lg:items-stretch" data-testid="note-workflow">
        {STAGES.map((stage, i) => {
          const count = counts[i];
          const reached = howReached(stage.status);
          return (
            <Fragment key={stage.status}>
              {i > 0 && (
                <li aria-hidden="true" className="flex items-center justify-center text-slate-400">
                  <ArrowDown className="size-5 lg:hidden" />
                  <ArrowRight className="hidden size-5 lg:block" />
                </li>
              )}
              <li data-testid="workflow-stage" data-status={stage.status} className="flex flex-1 flex-col gap-2 rounded-lg border bg-white p-4 lg:min-w-0">
                <div className="flex items-center justify-between gap-2">
                  <span
                    className="flex size-6 shrink-0 items-center justify-center rounded-full bg-slate-900 text-xs font-semibold text-white"
                    aria-hidden="true"
                  >
                    {i + 1}
                  </span>
                  {count?.isPending ? (
                    <Skeleton className="h-6 w-8" />
                  ) : (
                    <span className="text-lg font-bold text-slate-900" data-testid="workflow-count">
                      {count?.data ?? '–'}
                      <span className="sr-only"> {count?.data === 1 ? 'note' : 'notes'}</span>
                    </span>
                  )}
                </div>
                {/* A line of its own: the five stand in a row on a wide screen, and 'Submitted to Admin' is long. */}
                <NoteStatusBadge status={stage.status} className="self-start whitespace-normal" />
                <p className="text-sm text-slate-700">{stage.text}</p>
                {reached && <p className="mt-auto text-xs text-slate-600">{reached}</p>}
              </li>
            </Fragment>
          );
        })}
      </ol>
    </section>
  );
}
