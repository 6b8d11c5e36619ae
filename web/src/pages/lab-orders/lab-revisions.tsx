import { ArrowRight } from 'lucide-react';
import type { TLabFlag } from '#domain/lab-flags';
import { useLabOrderRevisions } from '../../api/labs/lab-order-revisions.ts';
import { formatDayTime } from '#domain/clinic-time';
import { ErrorState } from '../../components/error-state.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { LAB_RESULT_SOURCE_LABELS } from '#domain/lab-interfaces';
import { FLAG_WORDS } from './lab-format.ts';

const withFlag = (value: string | null, flag: TLabFlag | null) =>
  value === null ? 'not entered' : flag ? `${value} (${flag}, ${FLAG_WORDS[flag].toLowerCase()})` : value;

/** An order's corrections (GET …/revisions), oldest first: each value before and after, who, when and why. */
export function LabRevisions({ orderId, timeZone }: { orderId: string; timeZone: string }) {
  const { data, isPending, isError, error, refetch } = useLabOrderRevisions(orderId, true);
  return (
    <section aria-labelledby="lab-revisions-heading">
      <h3 id="lab-revisions-heading" className="mb-1 text-sm font-semibold text-slate-900">
        Corrections
      </h3>
      {isPending ? (
        <div>
          <p role="status" className="sr-only">
            Loading the corrections
          </p>
          <Skeleton className="h-12 w-full" aria-hidden="true" />
        </div>
      ) : isError ? (
        <ErrorState title="Could not load the corrections" error={error} onRetry={() => void refetch()} />
      ) : (
        <ol className="space-y-2" data-testid="lab-revisions">
          {data.map((revision) => (
            <li key={revision.id} data-testid="lab-revision" className="rounded-md border bg-white p-3 text-sm">
              <p className="flex flex-wrap items-center gap-1.5">
                <span className="font-semibold text-slate-900">{revision.resultName}:</span>
                <span className="text-slate-700">{withFlag(revision.valueBefore, revision.flagBefore)}</span>
                <ArrowRight className="size-4 text-slate-500" aria-label="corrected to" />
                <span className="font-medium text-slate-900">{withFlag(revision.valueAfter, revision.flagAfter)}</span>
              </p>
              <p className="mt-1 text-xs text-slate-600">
                By {revision.actorName}
                {revision.source !== 'typed' && ` (${LAB_RESULT_SOURCE_LABELS[revision.source]})`},{' '}
                <time dateTime={revision.at}>{formatDayTime(revision.at, timeZone)}</time>
              </p>
              {revision.reason && (
                <p className="mt-1 text-slate-800">
                  <span className="font-medium">Reason:</span> {revision.reason}
                </p>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
