import { apiRequest } from '../../lib/api-request.ts';

/** POST /api/chat/rooms/{id}/read: her read mark moves to the room's latest message. */
export async function markChatRoomRead(roomId: string): Promise<void> {
  await apiRequest('POST', `/api/chat/rooms/${roomId}/read`);
}
