import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import type { TChatMessage } from '#domain/chat';
import type { TPage } from '#domain/paging';
import { apiRequest } from '../../lib/api-request.ts';
import { fetchPage, pagedQueryOptions } from '../../lib/paged-query.ts';
import { invalidateChatRoom } from './rooms.ts';
import { chatMessagesRootKey } from './rooms.ts';

/** Messages per request; scrolling up to the oldest shown reads the page before. */
export const CHAT_MESSAGES_PAGE_SIZE = 50;

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

const messagesKey = (roomId: string) => [...chatMessagesRootKey(roomId), { limit: CHAT_MESSAGES_PAGE_SIZE }] as const;

/** GET /api/chat/rooms/{id}/messages?limit=&cursor=: one page, newest first; the next in `x-next-cursor`. */
export function fetchChatMessagesPage(roomId: string, cursor: string | null, signal?: AbortSignal): Promise<TPage<TChatMessage>> {
  return fetchPage<TChatMessage>(messagesKey(roomId), cursor, signal);
}

export function chatMessagesQueryOptions(roomId: string) {
  return pagedQueryOptions<TChatMessage>(messagesKey(roomId));
}

/** A room's history, newest page first; `fetchNextPage` reads older messages. */
export function useChatMessages(roomId: string) {
  return useInfiniteQuery(chatMessagesQueryOptions(roomId));
}

const messageUrl = (roomId: string, messageId: string) => `/api/chat/rooms/${roomId}/messages/${messageId}`;

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

/** Every write to a room's messages ends by reading its history and the room list again. */
function useRoomMessageMutation<TInput>(roomId: string, run: (input: TInput) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => invalidateChatRoom(queryClient, roomId) });
}

export function usePostChatMessage(roomId: string) {
  return useRoomMessageMutation(roomId, (input: TPostChatMessageInput) => postChatMessage(roomId, input));
}

/** PUT .../messages/{messageId}: her own message's new text (409 once deleted). */
export function useEditChatMessage(roomId: string) {
  return useRoomMessageMutation(roomId, async ({ messageId, content }: { messageId: string; content: string }) => {
    const response = await apiRequest('PUT', messageUrl(roomId, messageId), { content: content.trim() });
    return (await response.json()) as TChatMessage;
  });
}

/** DELETE .../messages/{messageId}: her own message is emptied for every reader. */
export function useDeleteChatMessage(roomId: string) {
  return useRoomMessageMutation(roomId, (messageId: string) => apiRequest('DELETE', messageUrl(roomId, messageId)));
}

/** POST or DELETE .../reactions: adds her reaction, or takes it back. */
export function useToggleChatReaction(roomId: string) {
  return useRoomMessageMutation(roomId, ({ messageId, reaction, add }: { messageId: string; reaction: string; add: boolean }) =>
    add
      ? apiRequest('POST', `${messageUrl(roomId, messageId)}/reactions`, { reaction })
      : apiRequest('DELETE', `${messageUrl(roomId, messageId)}/reactions/${encodeURIComponent(reaction)}`));
}
