import { useInfiniteQuery, type QueryClient } from '@tanstack/react-query';
import type { TChatMessage } from '#domain/chat';
import { pagedQueryOptions } from '../../lib/paged-query.ts';
import { chatRoomsKey, invalidateChatRooms } from './rooms.ts';

/** Messages per request; scrolling up to the oldest shown reads the page before. */
export const CHAT_MESSAGES_PAGE_SIZE = 50;

const chatMessagesRootKey = (roomId: string) => [...chatRoomsKey, roomId, 'messages'] as const;
const messagesKey = (roomId: string) => [...chatMessagesRootKey(roomId), { limit: CHAT_MESSAGES_PAGE_SIZE }] as const;

export function chatMessagesQueryOptions(roomId: string) {
  return pagedQueryOptions<TChatMessage>(messagesKey(roomId));
}

/** A room's history, newest page first; `fetchNextPage` reads older messages. */
export function useChatMessages(roomId: string) {
  return useInfiniteQuery(chatMessagesQueryOptions(roomId));
}

/** A room's history is read again (someone joined: the server adds a line). */
export function invalidateChatMessages(client: QueryClient, roomId: string): Promise<void> {
  return client.invalidateQueries({ queryKey: chatMessagesRootKey(roomId) });
}

/** A room's messages changed (posted, edited, deleted, reacted to): its history and the list. */
export function invalidateChatRoom(client: QueryClient, roomId: string): Promise<unknown> {
  return Promise.all([invalidateChatMessages(client, roomId), invalidateChatRooms(client)]);
}
