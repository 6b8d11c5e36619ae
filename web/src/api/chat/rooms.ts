import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { TChatMember, TChatRoom, TCreateChatRoom } from '#domain/chat';
import type { TStaffMember } from '#domain/staff';
import { apiRequest, fetchQueryKey } from '../../lib/api-request.ts';
import { invalidateDashboardStats } from '../dashboard/dashboard-stats.ts';

/** Every chat read about rooms (the list, one room's members, its messages) starts with this segment. */
export const chatRoomsKey = ['/api/chat/rooms'] as const;
export const chatMembersKey = (roomId: string) => [...chatRoomsKey, roomId, 'members'] as const;
export const chatMessagesRootKey = (roomId: string) => [...chatRoomsKey, roomId, 'messages'] as const;
const chatStaffKey = ['/api/staff'] as const;

/**
 * GET /api/chat/rooms: the user's rooms (every room for an admin, with isMember false where she
 * is not in it), most recent activity first, each with her unread count and the member count.
 */
export function chatRoomsQueryOptions() {
  return queryOptions({ queryKey: chatRoomsKey, queryFn: () => fetchQueryKey<TChatRoom[]>(chatRoomsKey) });
}

export function useChatRooms() {
  return useQuery(chatRoomsQueryOptions());
}

/** GET /api/chat/rooms/{id}/members: the active members, for members and for those who manage rooms. */
export function useChatMembers(roomId: string | null, enabled = true) {
  return useQuery({
    queryKey: chatMembersKey(roomId ?? ''),
    queryFn: () => fetchQueryKey<TChatMember[]>(chatMembersKey(roomId ?? '')),
    enabled: enabled && roomId !== null,
  });
}

/** GET /api/staff: every active staff member, for the team checklist and Add Member (admin and scheduler). */
export function useChatStaff(enabled: boolean) {
  return useQuery({ queryKey: chatStaffKey, queryFn: () => fetchQueryKey<TStaffMember[]>(chatStaffKey), enabled });
}

/**
 * The room list and the Team Chat badge moved (a message, a read mark, a membership): the list
 * and the sidebar's count (the dashboard stats' unreadMessages, the server's one unread rule)
 * are read again.
 */
export function invalidateChatRooms(client: QueryClient): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: chatRoomsKey, exact: true }),
    invalidateDashboardStats(client),
  ]);
}

/** After a gap in the live connection: every chat read (list, members, histories) afresh. */
export function invalidateAllChat(client: QueryClient): Promise<unknown> {
  return Promise.all([client.invalidateQueries({ queryKey: chatRoomsKey }), invalidateDashboardStats(client)]);
}

/** A room's messages changed (posted, edited, deleted, reacted to): its history and the list. */
export function invalidateChatRoom(client: QueryClient, roomId: string): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: chatMessagesRootKey(roomId) }),
    invalidateChatRooms(client),
  ]);
}

/** POST /api/chat/rooms: 201 with the new room's id; the creator is its first member. */
export async function createChatRoom(body: TCreateChatRoom): Promise<{ id: string }> {
  const response = await apiRequest('POST', '/api/chat/rooms', body);
  return (await response.json()) as { id: string };
}

/** POST /api/chat/rooms/{id}/members: 201; 409 when she is already a member. */
export async function addChatMember(roomId: string, userId: string): Promise<TChatMember> {
  const response = await apiRequest('POST', `/api/chat/rooms/${roomId}/members`, { userId });
  return (await response.json()) as TChatMember;
}

/** DELETE /api/chat/rooms/{id}/members/{userId}: leaving (herself) or a manager removing someone. */
export async function removeChatMember(roomId: string, userId: string): Promise<void> {
  await apiRequest('DELETE', `/api/chat/rooms/${roomId}/members/${userId}`);
}

/** POST /api/chat/rooms/{id}/read: her read mark moves to the room's latest message. */
export async function markChatRoomRead(roomId: string): Promise<void> {
  await apiRequest('POST', `/api/chat/rooms/${roomId}/read`);
}

/**
 * Creating a room (spec section 4): the room, then each chosen member with a call of her own;
 * a failure adding one is only logged (spec section 8). Then the list is read again.
 */
export function useCreateChatRoom() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ room, memberIds }: { room: TCreateChatRoom; memberIds: readonly string[] }) => {
      const created = await createChatRoom(room);
      for (const userId of memberIds) {
        try {
          await addChatMember(created.id, userId);
        } catch (error) {
          console.warn(`Could not add member ${userId} to chat room ${created.id}`, error);
        }
      }
      return created;
    },
    onSettled: () => void invalidateChatRooms(queryClient),
  });
}

export function useAddChatMember(roomId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => addChatMember(roomId, userId),
    onSuccess: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: chatMembersKey(roomId) }),
      queryClient.invalidateQueries({ queryKey: chatMessagesRootKey(roomId) }),
      invalidateChatRooms(queryClient),
    ]),
  });
}

export function useRemoveChatMember(roomId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeChatMember(roomId, userId),
    onSuccess: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: chatMembersKey(roomId) }),
      invalidateChatRooms(queryClient),
    ]),
  });
}
