import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import type { TServerMessage } from '#domain/live-events';
import { can } from '#domain/permissions';
import { invalidateChatRooms, useChatRooms } from '../../api/chat/rooms.ts';
import { PageHeader } from '../../components/layout/page-header.tsx';
import { useLiveMessages } from '../../live/live-provider.tsx';
import { cn } from '../../lib/utils.ts';
import { Conversation, NoRoomSelected } from './conversation.tsx';
import { NewRoomDialog } from './new-room-dialog.tsx';
import { RoomList } from './room-list.tsx';

/** The screen's address with a room open (?room=), so the browser's Back returns to the list on a phone. */
export const roomHref = (roomId: string | null) => (roomId ? `/team-chat?room=${roomId}` : '/team-chat');

/**
 * /team-chat (spec section 2): the patient chat rooms on the left (one third), the open room's
 * conversation on the right (two thirds). Under 768 px each takes the screen in turn, with a
 * way back to the list. The open room is kept in the address.
 */
export function TeamChatPage({ user }: { user: TCurrentUser }) {
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const selectedId = params.get('room');
  const rooms = useChatRooms();
  const [creating, setCreating] = useState(false);
  const queryClient = useQueryClient();
  const mayManage = can(user, 'chat.manageRooms');

  // Being added to a room arrives as a notification (chat_assignment): the list is read again.
  // A new message anywhere is handled by the live provider (the room, the list, the badge).
  const onLive = useCallback(
    (message: TServerMessage) => {
      if (message.type === 'notification') void invalidateChatRooms(queryClient);
    },
    [queryClient],
  );
  useLiveMessages(onLive);

  const select = (roomId: string | null) => navigate(roomHref(roomId));
  const room = rooms.data?.find((r) => r.id === selectedId) ?? null;

  return (
    <div className="mx-auto flex h-full min-h-[34rem] max-w-7xl flex-col">
      <div className={cn(selectedId && 'hidden md:block')}>
        <PageHeader title="Team Chat" subtitle="Secure patient-specific communication channels for healthcare teams" />
      </div>
      {selectedId && <h1 className="sr-only md:hidden">Team Chat</h1>}
      <div className="grid min-h-0 flex-1 grid-cols-1 gap-4 md:grid-cols-3">
        <RoomList
          className={cn(selectedId ? 'hidden md:flex' : 'flex')}
          query={rooms}
          selectedId={selectedId}
          mayCreate={mayManage}
          onNewRoom={() => setCreating(true)}
        />
        <section
          aria-label="Conversation"
          data-testid="conversation"
          className={cn('min-h-0 flex-col overflow-hidden rounded-lg border bg-white shadow-sm md:col-span-2', selectedId ? 'flex' : 'hidden md:flex')}
        >
          {selectedId ? (
            <Conversation key={selectedId} user={user} roomId={selectedId} room={room} roomsPending={rooms.isPending} onBack={() => select(null)} />
          ) : (
            <NoRoomSelected />
          )}
        </section>
      </div>
      {mayManage && <NewRoomDialog open={creating} user={user} onClose={() => setCreating(false)} onCreated={(roomId) => select(roomId)} />}
    </div>
  );
}
