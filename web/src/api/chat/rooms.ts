import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TChatRoom } from '#domain/chat';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { invalidateDashboardStats } from '../dashboard/dashboard-stats.ts';

/** Every chat read about rooms (the list, one room's members, its messages) starts with this segment. */
export const chatRoomsKey = ['/api/chat/rooms'] as const;

/**
 * GET /api/chat/rooms: the user's rooms (every room for an admin, with isMember false where she
 * is not in it), most recent activity first, each with her unread count and the member count.
 */
export function fetchChatRooms(): Promise<TChatRoom[]> {
  return fetchQueryKey<TChatRoom[]>(chatRoomsKey);
}

export function chatRoomsQueryOptions() {
  return queryOptions({ queryKey: chatRoomsKey, queryFn: fetchChatRooms });
}

export function useChatRooms() {
  return useQuery(chatRoomsQueryOptions());
}

/**
 * The room list and the Team Chat badge moved (a message, a read mark, a membership): the list
 * and the sidebar's count (the dashboard stats' unreadMessages, the server's one unread rule)
 * are read again.
 */
export function invalidateChatRooms(client: QueryClient): Promise<unknown> {
  return Promise.all([client.invalidateQueries({ queryKey: chatRoomsKey, exact: true }), invalidateDashboardStats(client)]);
}

/** After a gap in the live connection: every chat read (list, members, histories) afresh. */
export function invalidateAllChat(client: QueryClient): Promise<unknown> {
  return Promise.all([client.invalidateQueries({ queryKey: chatRoomsKey }), invalidateDashboardStats(client)]);
}
