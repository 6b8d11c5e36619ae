import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TChatMember } from '#domain/chat';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateChatMembers } from './chat-members.ts';
import { invalidateChatMessages } from './messages.ts';
import { invalidateChatRooms } from './rooms.ts';

/** POST /api/chat/rooms/{id}/members: 201; 409 when she is already a member. */
export async function addChatMember(roomId: string, userId: string): Promise<TChatMember> {
  const response = await apiRequest('POST', `/api/chat/rooms/${roomId}/members`, { userId });
  return (await response.json()) as TChatMember;
}

export function useAddChatMember(roomId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => addChatMember(roomId, userId),
    onSuccess: () => Promise.all([invalidateChatMembers(queryClient, roomId), invalidateChatMessages(queryClient, roomId), invalidateChatRooms(queryClient)]),
  });
}
