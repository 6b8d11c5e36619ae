import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TChatMessage } from '#domain/chat';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateChatRoom } from './messages.ts';

/** PUT /api/chat/rooms/{id}/messages/{messageId}: her own message's new text, trimmed (409 once deleted). */
export async function editChatMessage(roomId: string, messageId: string, content: string): Promise<TChatMessage> {
  const response = await apiRequest('PUT', `/api/chat/rooms/${roomId}/messages/${messageId}`, { content: content.trim() });
  return (await response.json()) as TChatMessage;
}

export function useEditChatMessage(roomId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ messageId, content }: { messageId: string; content: string }) => editChatMessage(roomId, messageId, content),
    onSuccess: () => invalidateChatRoom(queryClient, roomId),
  });
}
