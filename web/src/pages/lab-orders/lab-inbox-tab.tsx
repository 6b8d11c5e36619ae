import { Inbox } from 'lucide-react';
import { useState } from 'react';
import type { TLabInboxItem } from '#domain/lab-interfaces';
import { useLabInbox, type TLabInboxView } from '../../api/labs/lab-inbox.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { Button } from '../../components/ui/button.tsx';
import { LabInboxRow, LabInboxRowsSkeleton } from './lab-inbox-row.tsx';
import { useDeferredQuery } from '../../lib/deferred-query.ts';

const VIEWS: readonly { value: TLabInboxView; label: string; order: string }[] = [
  { value: 'waiting', label: 'Waiting', order: 'oldest first' },
  { value: 'all', label: 'All messages', order: 'newest first' },
];

/**
 * 'From the lab' (issue 54): the lab's messages the interface could not file by itself, oldest
 * first, for a person to file or reject; or, switched to 'All messages', everything the lab sent.
 */
export function LabInboxTab({ timeZone, onOpen }: { timeZone: string; onOpen: (item: TLabInboxItem) => void }) {
  const [view, setView] = useState<TLabInboxView>('waiting');
  return (
    <section aria-label="From the lab">
      <h2 className="sr-only">From the lab</h2>
      <div role="group" aria-label="Which messages" className="mb-3 inline-flex rounded-md border bg-white p-0.5">
        {VIEWS.map((choice) => (
          <Button
            key={choice.value}
            size="sm"
            variant={view === choice.value ? 'secondary' : 'ghost'}
            aria-pressed={view === choice.value}
            className="h-8 aria-pressed:font-semibold"
            onClick={() => setView(choice.value)}
          >
            {choice.label}
          </Button>
        ))}
      </div>
      <InboxList key={view} view={view} timeZone={timeZone} onOpen={onOpen} />
    </section>
  );
}

function InboxList({ view, timeZone, onOpen }: { view: TLabInboxView; timeZone: string; onOpen: (item: TLabInboxItem) => void }) {
  const query = useDeferredQuery(useLabInbox(view));
  const { data, isPending, isError, error, refetch, isFetchNextPageError } = query;
  const waiting = view === 'waiting';

  if (isPending) return <LabInboxRowsSkeleton label={waiting ? 'Loading the messages waiting from the lab' : 'Loading the messages from the lab'} />;
  // A failed first page; a failed later page keeps what is shown and offers 'Load more' again.
  if (isError && !isFetchNextPageError) {
    return <ErrorState title="Could not load the messages from the lab" error={error} onRetry={() => void refetch()} />;
  }

  const items = data.pages.flatMap((page) => page.items);
  const total = data.pages[0]?.total ?? null;
  if (items.length === 0) {
    return (
      <div
        data-testid="lab-inbox-empty"
        className="flex flex-col items-center gap-2 rounded-lg border border-dashed bg-white p-10 text-center text-sm text-slate-600"
      >
        <Inbox className="size-8 text-slate-400" aria-hidden="true" />
        <p className="font-medium text-slate-900">{waiting ? 'Nothing waiting from the lab' : 'No messages from the lab yet'}</p>
        <p>
          {waiting
            ? 'Results the lab sends that cannot be matched to an order and patient wait here for someone to file or reject.'
            : 'Every result message the lab interface receives is listed here, filed or not.'}
        </p>
      </div>
    );
  }
  const noun = (n: number) => `${n} ${n === 1 ? 'message' : 'messages'}`;
  const order = VIEWS.find((v) => v.value === view)!.order;
  return (
    <div>
      <p className="mb-3 text-sm text-slate-600" data-testid="lab-inbox-count">
        {total === null || total === items.length ? noun(items.length) : `${items.length} of ${noun(total)}`}
        {waiting ? ` waiting, ${order}` : `, ${order}`}
      </p>
      <ul className="space-y-3" data-testid="lab-inbox-list">
        {items.map((item) => (
          <LabInboxRow key={item.id} item={item} timeZone={timeZone} onOpen={onOpen} />
        ))}
      </ul>
      <LoadMore list={query} failedText="Could not load more messages." size="sm" className="mt-4" />
    </div>
  );
}
