import { Timer } from 'lucide-react';
import type { TAnalytics } from '#domain/analytics';

/** '45 min', '3 h 20 min', '2 d 4 h': two units at most, the larger first. */
export function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${Math.max(minutes, seconds > 0 ? 1 : 0)} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/** How long a note takes from its first submission to a scribe until it is finalized. */
export function TurnaroundStat({ turnaround }: { turnaround: TAnalytics['turnaround'] }) {
  const { noteCount, averageSeconds, medianSeconds, windowDays } = turnaround;
  return (
    <section aria-labelledby="turnaround-heading" data-testid="turnaround" className="rounded-lg border bg-white p-4 shadow-sm sm:p-6">
      <div className="flex items-start justify-between gap-3">
        <div>
          <h3 id="turnaround-heading" className="text-base font-semibold text-slate-900">
            Submitted to finalized
          </h3>
          <p className="text-sm text-slate-600">Average time from a note's first submission to a scribe until it was finalized</p>
        </div>
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-green-50 text-green-700">
          <Timer className="size-5" aria-hidden="true" />
        </span>
      </div>
      {noteCount === 0 || averageSeconds === null ? (
        <p data-testid="turnaround-empty" className="mt-4 rounded-md border border-dashed p-6 text-center text-sm text-slate-600">
          No finalized notes to measure in the last {windowDays} days.
        </p>
      ) : (
        <dl className="mt-4 grid grid-cols-2 gap-4">
          <div>
            <dt className="text-sm font-medium text-slate-600">Average</dt>
            <dd data-testid="turnaround-average" className="text-3xl font-bold text-slate-900">
              {formatDuration(averageSeconds)}
            </dd>
          </div>
          {medianSeconds !== null && (
            <div>
              <dt className="text-sm font-medium text-slate-600">Median</dt>
              <dd className="text-3xl font-bold text-slate-900">{formatDuration(medianSeconds)}</dd>
            </div>
          )}
          <div className="col-span-2 text-sm text-slate-600">
            <dt className="sr-only">Measured over</dt>
            <dd>
              Over {noteCount} {noteCount === 1 ? 'note' : 'notes'} finalized in the last {windowDays} days.
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
