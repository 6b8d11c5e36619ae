import { useInfiniteQuery, type QueryClient } from '@tanstack/react-query';
import type { LAB_INBOX_VIEWS, TLabInboxItem } from '#domain/lab-interfaces';
import { pagedQueryOptions } from '../../lib/paged-query.ts';

/** Every read of the lab's messages (the queue, one message) starts with this segment. */
export const labInboxRootKey = ['/api/lab-inbox'] as const;

/** Rows per request; 'Load more' reads the next. */
const LAB_INBOX_PAGE_SIZE = 20;

/** 'waiting': what a person must file or reject, oldest first; 'all': every message, newest first. */
export type TLabInboxView = (typeof LAB_INBOX_VIEWS)[number];

const listKey = (view: TLabInboxView) => [...labInboxRootKey, { view, limit: LAB_INBOX_PAGE_SIZE }] as const;

/** GET /api/lab-inbox?view=&limit=&cursor=: the lab's messages the caller may see, a page at a time. */
export function labInboxQueryOptions(view: TLabInboxView) {
  // Changes arrive live (lab_inbox_changed), and the screen reads the queue again then.
  return pagedQueryOptions<TLabInboxItem>(listKey(view));
}

export function useLabInbox(view: TLabInboxView) {
  return useInfiniteQuery(labInboxQueryOptions(view));
}

/** After a message was filed or rejected, or the queue changed live: both lists and any open message are read again. */
export function invalidateLabInbox(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: labInboxRootKey });
}
