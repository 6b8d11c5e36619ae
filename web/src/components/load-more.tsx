import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { MAIN_CONTENT_ID } from '../lib/main-content.ts';
import { cn } from '../lib/utils.ts';
import { Button, type ButtonProps } from './ui/button.tsx';
import { Spinner } from './ui/spinner.tsx';

/** Start loading the next page this far before the end of the list comes into view. */
const PRELOAD_MARGIN = '600px';

/** What the footer reads of a list read a page at a time (`useInfiniteQuery`). */
export type TPagedList = Pick<UseInfiniteQueryResult, 'hasNextPage' | 'isFetchingNextPage' | 'isFetchNextPageError' | 'fetchNextPage'>;

interface TLoadMoreProps {
  list: TPagedList;
  /** The alert after a later page failed ('Could not load more patients.'); what is shown stays. */
  failedText: string;
  /** The button's text: 'Load more', or e.g. 'Load older messages'. */
  label?: string;
  /** Instead of reading the next page directly (the chat keeps its scroll place first). */
  onLoadMore?: () => void;
  /** Also load as the footer nears the view in the layout's scroller (#main-content). */
  autoLoad?: boolean;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  className?: string;
  testId?: string;
}

/**
 * The footer of a paged list, shown while there are more pages: 'Load more'; 'Loading more…'
 * while the next page is on its way; after a failed later page, an alert and 'Try again'.
 * With `autoLoad` the next page loads as the end of the list scrolls near; the button stays for
 * when the observer cannot fire (keyboard users, very tall screens, a failed page to retry).
 */
export function LoadMore({
  list,
  failedText,
  label = 'Load more',
  onLoadMore,
  autoLoad = false,
  variant = 'outline',
  size,
  className,
  testId,
}: TLoadMoreProps) {
  const { hasNextPage, isFetchingNextPage: loading, isFetchNextPageError: failed, fetchNextPage } = list;
  const loadMore = onLoadMore ?? (() => void fetchNextPage({ cancelRefetch: false }));
  const footer = useRef<HTMLDivElement>(null);
  const latest = useRef(loadMore);
  latest.current = loadMore;

  useEffect(() => {
    const element = footer.current;
    // After a failure, wait for the user rather than retrying in a loop.
    if (!autoLoad || !element || loading || failed || typeof IntersectionObserver === 'undefined') return;
    // A new observer after each page reports at once whether the end is still in view, so a
    // short page on a tall screen keeps loading until the screen is full.
    // The list scrolls inside the layout's main area, not the window: the margin grows only the
    // root, so the root must be that scroller for the end to count as near before it shows.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current();
      },
      { root: element.closest(`#${MAIN_CONTENT_ID}`), rootMargin: PRELOAD_MARGIN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [autoLoad, loading, failed, hasNextPage]);

  if (!hasNextPage) return null;
  return (
    <div ref={footer} data-testid={testId} className={cn('flex flex-col items-center gap-2', className)}>
      {loading ? (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4" />
          Loading more…
        </p>
      ) : (
        <>
          {failed && (
            <p role="alert" className="text-sm text-red-700">
              {failedText}
            </p>
          )}
          <Button variant={variant} size={size} onClick={loadMore}>
            {failed ? 'Try again' : label}
          </Button>
        </>
      )}
    </div>
  );
}
