import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateChatMembers } from './chat-members.ts';
import { invalidateChatRooms } from './rooms.ts';

/** DELETE /api/chat/rooms/{id}/members/{userId}: leaving (herself) or a manager removing someone. */
export async function removeChatMember(roomId: string, userId: string): Promise<void> {
  await apiRequest('DELETE', `/api/chat/rooms/${roomId}/members/${userId}`);
}

export function useRemoveChatMember(roomId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeChatMember(roomId, userId),
    onSuccess: () => Promise.all([invalidateChatMembers(queryClient, roomId), invalidateChatRooms(queryClient)]),
  });
}
