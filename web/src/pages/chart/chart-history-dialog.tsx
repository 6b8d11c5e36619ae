import type { TChartRevision } from '#domain/chart';
import { formatClinicTime } from '#domain/clinic-time';
import { useChartHistory } from '../../api/chart/chart.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { FormDialog } from '../../components/ui/form-dialog.tsx';
import { LoadingBlock } from '../../components/ui/spinner.tsx';

const ACTION_LABELS: Record<TChartRevision['action'], string> = {
  created: 'Recorded',
  updated: 'Changed',
  confirmed: 'Confirmed',
  entered_in_error: 'Marked entered in error',
  assessed: 'Statement',
};

/** A field's value as the history shows it. */
const shown = (value: unknown): string =>
  value === null || value === undefined || value === ''
    ? '—'
    : Array.isArray(value)
      ? value.join(', ') || '—'
      : typeof value === 'object'
        ? String((value as { name?: unknown }).name ?? JSON.stringify(value))
        : String(value);

/** What a change changed: each field whose value differs, before → after. */
function changes(revision: TChartRevision): [string, string, string][] {
  if (!revision.before || !revision.after) return [];
  const keys = [...new Set([...Object.keys(revision.before), ...Object.keys(revision.after)])];
  return keys.flatMap((key) => {
    const [before, after] = [shown(revision.before![key]), shown(revision.after![key])];
    return before === after ? [] : [[key, before, after] as [string, string, string]];
  });
}

/** An entry's history, newest first: every change with who made it, when, why, and what it was before. */
export function ChartHistoryDialog({
  patientId,
  entryId,
  title,
  timeZone,
  onClose,
}: {
  patientId: string;
  entryId: string;
  title: string;
  timeZone: string;
  onClose: () => void;
}) {
  const history = useChartHistory(patientId, entryId, true);
  return (
    <FormDialog
      onClose={onClose}
      title={`History of ${title}`}
      description="Every change, newest first. Nothing on the chart is deleted."
      testId="chart-history-dialog"
    >
      {history.isPending ? (
        <LoadingBlock />
      ) : history.isError ? (
        <ErrorState title="Could not load the history" error={history.error} onRetry={() => void history.refetch()} />
      ) : (
        <ol className="space-y-3 text-sm" aria-label="Changes">
          {history.data.map((revision) => (
            <li key={revision.id} className="rounded-md border p-3" data-testid="chart-revision" data-action={revision.action}>
              <p className="font-medium text-slate-900">
                {ACTION_LABELS[revision.action]} · {formatClinicTime(revision.at, timeZone)} · {revision.actorName}
              </p>
              {revision.reason && <p className="text-slate-700">Why: {revision.reason}</p>}
              {changes(revision).length > 0 && (
                <ul className="mt-1 space-y-0.5 text-slate-700">
                  {changes(revision).map(([field, before, after]) => (
                    <li key={field} className="break-words">
                      {field}: {before} → {after}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
    </FormDialog>
  );
}
