import { Pill } from 'lucide-react';
import type { ReactNode } from 'react';
import type { TPrescription } from '#domain/prescriptions';
import { usePrescriptions, type TPrescriptionFilter } from '../../api/prescriptions/prescriptions.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { PrescriptionRow, PrescriptionRowsSkeleton } from './prescription-row.tsx';

interface TPrescriptionListProps {
  /** The tab's name, as a heading for screen readers (the rows' headings sit under it). */
  heading: string;
  filter: TPrescriptionFilter;
  timeZone: string;
  empty: ReactNode;
  errorTitle: string;
  loadingLabel: string;
  onOpen: (rx: TPrescription) => void;
}

/** One tab's prescriptions, newest first, a page at a time: skeleton rows, an error with a retry, the tab's empty text, 'Load more'. */
export function PrescriptionList({ heading, filter, timeZone, empty, errorTitle, loadingLabel, onOpen }: TPrescriptionListProps) {
  const query = usePrescriptions(filter);
  const { data, isPending, isError, error, refetch, isFetchNextPageError } = query;
  let body: ReactNode;
  if (isPending) body = <PrescriptionRowsSkeleton label={loadingLabel} />;
  // A failed first page; a failed later page keeps what is shown and offers 'Load more' again.
  else if (isError && !isFetchNextPageError) body = <ErrorState title={errorTitle} error={error} onRetry={() => void refetch()} />;
  else {
    const rows = data.pages.flatMap((page) => page.items);
    const total = data.pages[0]?.total ?? null;
    body =
      rows.length === 0 ? (
        <div
          data-testid="rx-empty"
          className="flex flex-col items-center gap-2 rounded-lg border border-dashed bg-white p-10 text-center text-sm text-slate-600"
        >
          <Pill className="size-8 text-slate-400" aria-hidden="true" />
          {empty}
        </div>
      ) : (
        <div>
          <p className="mb-3 text-sm text-slate-600" data-testid="rx-count">
            {total === null || total === rows.length
              ? `${rows.length} ${rows.length === 1 ? 'prescription' : 'prescriptions'}`
              : `${rows.length} of ${total} prescriptions`}
            , newest first
          </p>
          <ul className="space-y-3" data-testid="rx-list">
            {rows.map((rx) => (
              <PrescriptionRow key={rx.id} rx={rx} timeZone={timeZone} onOpen={onOpen} />
            ))}
          </ul>
          <LoadMore list={query} failedText="Could not load more prescriptions." size="sm" className="mt-4" />
        </div>
      );
  }
  return (
    <section aria-label={heading}>
      <h2 className="sr-only">{heading}</h2>
      {body}
    </section>
  );
}
