import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TCreateChatRoom } from '#domain/chat';
import { apiRequest } from '../../lib/api-request.ts';
import { addChatMember } from './add-chat-member.ts';
import { invalidateChatRooms } from './rooms.ts';

/** POST /api/chat/rooms: 201 with the new room's id; the creator is its first member. */
export async function createChatRoom(body: TCreateChatRoom): Promise<{ id: string }> {
  const response = await apiRequest('POST', '/api/chat/rooms', body);
  return (await response.json()) as { id: string };
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
