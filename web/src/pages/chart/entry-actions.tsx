import type { TCurrentUser } from '#domain/auth';
import { formatClinicTime } from '#domain/clinic-time';
import { can } from '#domain/permissions';
import { useConfirmEntry, type TChartListPath } from '../../api/chart/entries.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';

/** An entry as every list of the chart has it: who wrote it and where it stands. */
export interface TEntryView {
  id: string;
  patientId: string;
  version: number;
  state: 'draft' | 'confirmed';
  recordedAt: string;
  recordedById: string | null;
  recordedByName: string | null;
  confirmedAt: string | null;
  confirmedByName: string | null;
}

/** Whether this user may change an entry: a nurse or an admin any; a scribe her own draft; nobody one entered in error. */
export const mayChangeEntry = (user: TCurrentUser, entry: TEntryView, inError: boolean) =>
  !inError && (can(user, 'chart.confirm') || (entry.state === 'draft' && entry.recordedById === user.id));

/** 'Recorded … by …, confirmed … by …': the line under every entry. */
export function EntryRecorded({ entry, timeZone }: { entry: TEntryView; timeZone: string }) {
  return (
    <p className="text-xs text-slate-600">
      Recorded {formatClinicTime(entry.recordedAt, timeZone)}
      {entry.recordedByName ? ` by ${entry.recordedByName}` : ''}
      {entry.confirmedAt && entry.confirmedAt !== entry.recordedAt
        ? ` · confirmed ${formatClinicTime(entry.confirmedAt, timeZone)}${entry.confirmedByName ? ` by ${entry.confirmedByName}` : ''}`
        : ''}
    </p>
  );
}

/** The draft badge a scribe's unconfirmed entry carries on every list. */
export function DraftBadge({ entry }: { entry: TEntryView }) {
  if (entry.state !== 'draft') return null;
  return (
    <span className="rounded border border-amber-400 bg-amber-50 px-1.5 text-xs font-medium text-amber-900" data-testid="draft-badge">
      Draft: to confirm
    </span>
  );
}

/** An entry's buttons, the same on every list: Confirm (a scribe's draft), Edit, Entered in error, History. */
export function EntryActions({
  list,
  entry,
  name,
  user,
  inError,
  editable = true,
  onEdit,
  onEnteredInError,
  onHistory,
}: {
  list: TChartListPath;
  entry: TEntryView;
  name: string;
  user: TCurrentUser;
  inError: boolean;
  /** False for a list whose entries are withdrawn, not edited (vital signs: a correction is a new set). */
  editable?: boolean;
  onEdit: () => void;
  onEnteredInError: () => void;
  onHistory: () => void;
}) {
  const confirm = useConfirmEntry(list);
  return (
    <div className="flex flex-wrap gap-2 pt-1">
      {entry.state === 'draft' && can(user, 'chart.confirm') && !inError && (
        <Button
          size="sm"
          disabled={confirm.isPending}
          onClick={() =>
            confirm.mutate(
              { patientId: entry.patientId, entryId: entry.id, version: entry.version },
              {
                onSuccess: () => toast({ title: 'Entry confirmed', description: name, variant: 'success' }),
                onError: (error) => reportMutationError(error, 'Could not confirm the entry', { withReason: true }),
              },
            )
          }
        >
          {confirm.isPending && <Spinner className="size-4 text-white" />}
          Confirm<span className="sr-only"> {name}</span>
        </Button>
      )}
      {mayChangeEntry(user, entry, inError) && (
        <>
          {editable && (
            <Button size="sm" variant="outline" onClick={onEdit}>
              Edit<span className="sr-only"> {name}</span>
            </Button>
          )}
          <Button size="sm" variant="outline" onClick={onEnteredInError}>
            Entered in error<span className="sr-only">: {name}</span>
          </Button>
        </>
      )}
      <Button size="sm" variant="ghost" onClick={onHistory}>
        History<span className="sr-only"> of {name}</span>
      </Button>
    </div>
  );
}
