import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-request.ts';
import { invalidateChatRoom } from './messages.ts';

export interface TChatReactionToggle {
  messageId: string;
  reaction: string;
  /** true adds her reaction; false takes it back. */
  add: boolean;
}

/** POST /api/chat/rooms/{id}/messages/{messageId}/reactions, or DELETE .../reactions/{reaction}. */
export async function toggleChatReaction(roomId: string, { messageId, reaction, add }: TChatReactionToggle): Promise<void> {
  const reactions = `/api/chat/rooms/${roomId}/messages/${messageId}/reactions`;
  if (add) await apiRequest('POST', reactions, { reaction });
  else await apiRequest('DELETE', `${reactions}/${encodeURIComponent(reaction)}`);
}

export function useToggleChatReaction(roomId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (toggle: TChatReactionToggle) => toggleChatReaction(roomId, toggle),
    onSuccess: () => invalidateChatRoom(queryClient, roomId),
  });
}
