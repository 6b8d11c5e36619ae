import { MessageSquare } from 'lucide-react';
import { useLayoutEffect, useRef } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TChatMember } from '#domain/chat';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { useChatMessages } from '../../api/chat/messages.ts';
import { ErrorState } from '../../components/error-state.tsx';
import { LoadMore } from '../../components/load-more.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { MessageItem } from './message-item.tsx';
import { useDeferredQuery } from '../../lib/deferred-query.ts';

/** How near the top (px) scrolling starts reading older messages. */
const LOAD_OLDER_WITHIN_PX = 80;

/**
 * A room's messages, oldest at the top: scrolled to the newest when one arrives, and reading the
 * page before when scrolled up to the oldest shown (the place stays where it was).
 */
export function MessageList({ user, roomId, members }: { user: TCurrentUser; roomId: string; members: TChatMember[] }) {
  const query = useDeferredQuery(useChatMessages(roomId));
  const { data, isPending, isError, error, refetch, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  const { timeZone } = useClinicTimeZone();
  const scroller = useRef<HTMLDivElement>(null);
  const shown = useRef<{ newest: string | null; oldest: string | null; height: number }>({ newest: null, oldest: null, height: 0 });

  // Newest first from the server; shown oldest first.
  const messages = data ? [...data.pages.flatMap((page) => page.items)].reverse() : [];
  const newest = messages.at(-1)?.id ?? null;
  const oldest = messages[0]?.id ?? null;

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const before = shown.current;
    if (newest !== before.newest) {
      el.scrollTop = el.scrollHeight;
    } else if (oldest !== before.oldest && before.height > 0) {
      // Older messages went in above: keep the ones being read in place.
      el.scrollTop += el.scrollHeight - before.height;
    }
    shown.current = { newest, oldest, height: el.scrollHeight };
  });

  const loadOlder = () => {
    if (hasNextPage && !isFetchingNextPage) {
      shown.current.height = scroller.current?.scrollHeight ?? 0;
      void fetchNextPage({ cancelRefetch: false });
    }
  };

  let body;
  if (isPending) {
    body = (
      <div className="space-y-4 p-4">
        <p role="status" className="text-center text-sm text-slate-600">
          Loading messages...
        </p>
        {Array.from({ length: 3 }, (_, i) => (
          <div key={i} className="flex gap-3">
            <Skeleton className="size-8 rounded-full" />
            <div className="flex-1 space-y-2">
              <Skeleton className="h-3 w-1/3" />
              <Skeleton className="h-4 w-3/4" />
            </div>
          </div>
        ))}
      </div>
    );
  } else if (isError && !isFetchNextPageError) {
    body = (
      <div className="p-4">
        <ErrorState title="Could not load messages" error={error} onRetry={() => void refetch()} />
      </div>
    );
  } else if (messages.length === 0) {
    body = (
      <div data-testid="messages-empty" className="flex h-full flex-col items-center justify-center gap-2 p-8 text-center text-sm text-slate-600">
        <MessageSquare className="size-8 text-slate-400" aria-hidden="true" />
        <p className="font-medium text-slate-900">No messages yet</p>
        <p>Start the conversation below</p>
      </div>
    );
  } else {
    body = (
      <>
        <LoadMore
          list={query}
          failedText="Could not load older messages."
          label="Load older messages"
          onLoadMore={loadOlder}
          variant="ghost"
          size="sm"
          className="gap-1 pt-3"
        />
        <ol className="space-y-1 p-2 md:p-3" data-testid="message-list">
          {messages.map((message) => (
            <MessageItem key={message.id} message={message} user={user} roomId={roomId} members={members} timeZone={timeZone} />
          ))}
        </ol>
      </>
    );
  }

  return (
    <div
      ref={scroller}
      role="log"
      aria-label="Messages"
      tabIndex={0}
      className="min-h-0 flex-1 overflow-y-auto focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
      onScroll={(event) => {
        if (event.currentTarget.scrollTop < LOAD_OLDER_WITHIN_PX && !isFetchNextPageError) loadOlder();
      }}
    >
      {body}
    </div>
  );
}
