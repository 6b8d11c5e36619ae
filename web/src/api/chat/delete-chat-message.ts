import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateChatRoom } from './messages.ts';

/** DELETE /api/chat/rooms/{id}/messages/{messageId}: her own message is emptied for every reader. */
export async function deleteChatMessage(roomId: string, messageId: string): Promise<void> {
  await apiRequest('DELETE', `/api/chat/rooms/${roomId}/messages/${messageId}`);
}

export function useDeleteChatMessage(roomId: string) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: (messageId: string) => deleteChatMessage(roomId, messageId), onSuccess: () => invalidateChatRoom(queryClient, roomId) });
}
