import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { TChatMember } from '#domain/chat';
import { fetchQueryKey } from '../../lib/api-request.ts';
import { chatRoomsKey } from './rooms.ts';

const chatMembersKey = (roomId: string) => [...chatRoomsKey, roomId, 'members'] as const;

/** GET /api/chat/rooms/{id}/members: the active members, for members and for those who manage rooms. */
export function fetchChatMembers(roomId: string): Promise<TChatMember[]> {
  return fetchQueryKey<TChatMember[]>(chatMembersKey(roomId));
}

export function chatMembersQueryOptions(roomId: string) {
  return queryOptions({ queryKey: chatMembersKey(roomId), queryFn: () => fetchChatMembers(roomId) });
}

export function useChatMembers(roomId: string | null, enabled = true) {
  return useQuery({ ...chatMembersQueryOptions(roomId ?? ''), enabled: enabled && roomId !== null });
}

/** A room's members changed (someone joined, left or was removed): its member list is read again. */
export function invalidateChatMembers(client: QueryClient, roomId: string): Promise<void> {
  return client.invalidateQueries({ queryKey: chatMembersKey(roomId) });
}
