import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TChatMessage } from '#domain/chat';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateChatRoom } from './messages.ts';

/** An attachment as a message carries it (spec section 7): the url is the confirmed objectPath. */
export interface TChatAttachmentInput {
  name: string;
  size: number;
  url: string;
  type: string;
}

export interface TPostChatMessageInput {
  content: string;
  attachments: TChatAttachmentInput[];
  mentionedUserIds: string[];
}

/** POST /api/chat/rooms/{id}/messages: content trimmed, messageType 'message', at most one file. */
export async function postChatMessage(roomId: string, input: TPostChatMessageInput): Promise<TChatMessage> {
  const response = await apiRequest('POST', `/api/chat/rooms/${roomId}/messages`, {
    content: input.content.trim(),
    messageType: 'message',
    ...(input.attachments.length > 0 ? { attachments: input.attachments } : {}),
    ...(input.mentionedUserIds.length > 0 ? { mentionedUserIds: input.mentionedUserIds } : {}),
  });
  return (await response.json()) as TChatMessage;
}

export function usePostChatMessage(roomId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TPostChatMessageInput) => postChatMessage(roomId, input),
    onSuccess: () => invalidateChatRoom(queryClient, roomId),
  });
}
