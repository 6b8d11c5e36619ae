import { BellOff } from 'lucide-react';
import type { ReactNode } from 'react';
import type { useNotifications } from '../../api/notifications/notifications.ts';
import { ErrorState } from '../error-state.tsx';
import { Skeleton } from '../ui/skeleton.tsx';

/**
 * What a notification list shows before and instead of its rows: skeletons while the first read
 * runs, the error with Try again when that read failed (a failed re-read keeps the list it had),
 * and the empty line. `children` are the rows, when there are any.
 */
export function NotificationStates({
  query,
  count,
  emptyText,
  emptyTestId,
  children,
}: {
  query: Pick<ReturnType<typeof useNotifications>, 'isLoading' | 'isError' | 'data' | 'error' | 'refetch'>;
  /** How many rows the list would show. */
  count: number;
  emptyText: string;
  emptyTestId: string;
  children: ReactNode;
}) {
  if (query.isLoading) {
    return (
      <div role="status">
        <span className="sr-only">Loading notifications</span>
        <div className="space-y-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-16 w-full" />
          ))}
        </div>
      </div>
    );
  }
  if (query.isError && !query.data) {
    return <ErrorState title="Could not load notifications" error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (count === 0) {
    return (
      <div data-testid={emptyTestId} className="flex flex-col items-center gap-2 py-8 text-center text-sm text-slate-600">
        <BellOff className="size-6 text-slate-400" aria-hidden="true" />
        {emptyText}
      </div>
    );
  }
  return children;
}
