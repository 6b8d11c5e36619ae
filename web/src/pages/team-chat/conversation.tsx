import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, LogOut, MessageSquare, UserPlus, Users } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TChatRoom } from '#domain/chat';
import type { TServerMessage } from '#domain/live-events';
import { can } from '#domain/permissions';
import { useAddChatMember } from '../../api/chat/add-chat-member.ts';
import { useChatMembers } from '../../api/chat/chat-members.ts';
import { markChatRoomRead } from '../../api/chat/mark-chat-room-read.ts';
import { useRemoveChatMember } from '../../api/chat/remove-chat-member.ts';
import { invalidateChatRooms } from '../../api/chat/rooms.ts';
import { PatientAllergyBanner } from '../../components/chart/patient-allergy-banner.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/popover.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useLiveMessages, useLiveStatus } from '../../live/live-provider.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { cn } from '../../lib/utils.ts';
import { initialsOf, memberCountLabel, personName } from './chat-format.ts';
import { ChatRoleBadge, Initials } from './chat-role-badge.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { MessageList } from './message-list.tsx';

// The composer holds the upload widget (whose Uppy loads as the composer mounts): it loads once a
// room the user is in is opened.
const MessageComposer = lazy(async () => ({ default: (await import('./message-composer.tsx')).MessageComposer }));
const AddMemberDialog = lazy(async () => ({ default: (await import('./add-member-dialog.tsx')).AddMemberDialog }));

/** The right column with no room open (spec section 2). */
export function NoRoomSelected() {
  return (
    <div data-testid="no-room-selected" className="flex flex-1 flex-col items-center justify-center gap-2 p-8 text-center">
      <MessageSquare className="size-10 text-slate-400" aria-hidden="true" />
      <h2 className="text-lg font-semibold text-slate-900">Select a Chat Room</h2>
      <p className="text-sm text-slate-600">Choose a patient chat room to start communicating with your team</p>
    </div>
  );
}

/**
 * One room (spec section 2): its name, description and members, Add Member for those who manage
 * rooms, Leave, the messages and the message box. Opening it, and each message arriving while it
 * is open, marks it read. An admin sees rooms she is not in, and may join them to read.
 */
export function Conversation({
  user,
  roomId,
  room,
  roomsPending,
  onBack,
}: {
  user: TCurrentUser;
  roomId: string;
  room: TChatRoom | null;
  roomsPending: boolean;
  onBack: () => void;
}) {
  const queryClient = useQueryClient();
  const isMember = room?.isMember ?? false;
  const mayManage = can(user, 'chat.manageRooms');
  const members = useChatMembers(roomId, room !== null && (isMember || mayManage));
  const [adding, setAdding] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const join = useAddChatMember(roomId);
  const leave = useRemoveChatMember(roomId);

  const markRead = useCallback(() => {
    markChatRoomRead(roomId).then(
      () => invalidateChatRooms(queryClient),
      (error: unknown) => console.warn('Could not mark the room read', error),
    );
  }, [roomId, queryClient]);
  useEffect(() => {
    if (isMember) markRead();
  }, [isMember, markRead]);
  const onLive = useCallback(
    (message: TServerMessage) => {
      if (message.type === 'new_message' && message.roomId === roomId && isMember) markRead();
    },
    [roomId, isMember, markRead],
  );
  useLiveMessages(onLive);

  if (!room) {
    return (
      <div className="flex flex-1 flex-col">
        <BackBar onBack={onBack} />
        {roomsPending ? (
          <div className="flex flex-1 items-center justify-center" role="status">
            <Spinner />
            <span className="sr-only">Loading the room...</span>
          </div>
        ) : (
          <div data-testid="room-unavailable" className="flex flex-1 flex-col items-center justify-center gap-2 p-8 text-center">
            <h2 className="text-lg font-semibold text-slate-900">Chat room not available</h2>
            <p className="text-sm text-slate-600">It may have been closed, or you are no longer a member.</p>
          </div>
        )}
      </div>
    );
  }

  const memberIds = new Set((members.data ?? []).map((m) => m.userId));

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="room-view" data-room-id={room.id}>
      <header className="flex flex-col gap-2 border-b px-3 py-3 md:px-4 lg:flex-row lg:items-start">
        <div className="flex min-w-0 flex-1 items-start gap-2">
          <Button variant="ghost" size="icon" className="-ml-1 size-9 shrink-0 md:hidden" aria-label="Back to chat rooms" onClick={onBack}>
            <ArrowLeft aria-hidden="true" />
          </Button>
          <div className="min-w-0 flex-1">
            <h2 className="break-words text-lg font-semibold text-slate-900" data-testid="room-title">
              {room.name}
            </h2>
            {room.description && (
              <p className="break-words text-sm text-slate-600" data-testid="room-description">
                {room.description}
              </p>
            )}
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <MembersBadge count={room.memberCount} members={members.data} user={user} roomId={roomId} mayManage={mayManage} />
          {mayManage && (
            <Button variant="outline" size="sm" onClick={() => setAdding(true)}>
              <UserPlus aria-hidden="true" />
              Add Member
            </Button>
          )}
          {isMember && (
            <Button variant="outline" size="sm" aria-label="Leave room" title="Leave room" onClick={() => setLeaving(true)}>
              <LogOut aria-hidden="true" />
              <span aria-hidden="true" className="hidden sm:inline">
                Leave room
              </span>
            </Button>
          )}
        </div>
      </header>
      {room.patientName !== null && can(user, 'chart.banner') && <PatientAllergyBanner patientId={room.patientId} className="mx-3 mt-2 md:mx-4" />}

      {isMember ? (
        <>
          <LiveLine />
          <MessageList user={user} roomId={roomId} members={members.data ?? []} />
          <Suspense fallback={<div className="h-28 border-t" />}>
            <MessageComposer roomId={roomId} user={user} members={members.data ?? []} />
          </Suspense>
        </>
      ) : (
        <div data-testid="not-a-member" className="flex flex-1 flex-col items-center justify-center gap-3 p-8 text-center">
          <p className="font-medium text-slate-900">You are not a member of this room</p>
          <p className="max-w-sm text-sm text-slate-600">
            Only the room's members read its messages. Join it to read and take part; its members will see you in the member list.
          </p>
          <Button
            disabled={join.isPending}
            onClick={() =>
              join.mutate(user.id, {
                onSuccess: () => toast({ title: 'You joined the room', variant: 'success' }),
                onError: (error) => reportMutationError(error, 'Failed to add member', { withReason: true }),
              })
            }
          >
            {join.isPending && <Spinner className="size-4 text-white" />}
            Join room
          </Button>
        </div>
      )}

      {adding && (
        <Suspense fallback={null}>
          <AddMemberDialog roomId={roomId} roomName={room.name} memberIds={memberIds} membersLoaded={members.isSuccess} onClose={() => setAdding(false)} />
        </Suspense>
      )}
      <ConfirmDialog
        open={leaving}
        title="Leave this room?"
        description={`You will no longer read or receive the messages of ${room.name}.`}
        confirmLabel="Leave room"
        pending={leave.isPending}
        onCancel={() => setLeaving(false)}
        onConfirm={() =>
          leave.mutate(user.id, {
            onSuccess: () => {
              setLeaving(false);
              toast({ title: 'You left the room', variant: 'success' });
              onBack();
            },
            onError: (error) => reportMutationError(error, 'Failed to leave the room', { withReason: true }),
          })
        }
      />
    </div>
  );
}

function BackBar({ onBack }: { onBack: () => void }) {
  return (
    <div className="border-b px-3 py-2 md:hidden">
      <Button variant="ghost" size="sm" onClick={onBack}>
        <ArrowLeft aria-hidden="true" />
        Back to chat rooms
      </Button>
    </div>
  );
}

/** Spec section 2: 'Real-time messaging active' while the live connection is open. */
function LiveLine() {
  const live = useLiveStatus() === 'live';
  return (
    <p
      className="flex items-center gap-2 border-b bg-slate-50 px-4 py-1.5 text-xs text-slate-700"
      data-testid="chat-live"
      data-state={live ? 'live' : 'offline'}
    >
      <span aria-hidden="true" className={cn('size-2 rounded-full', live ? 'bg-green-600' : 'bg-slate-400')} />
      {live ? 'Real-time messaging active' : 'Connecting to real-time messaging...'}
    </p>
  );
}

/** '{n} members', which opens the member list; those who manage rooms may remove a member there. */
function MembersBadge({
  count,
  members,
  user,
  roomId,
  mayManage,
}: {
  count: number;
  members: { userId: string; firstName: string | null; lastName: string | null; role: TCurrentUser['role'] }[] | undefined;
  user: TCurrentUser;
  roomId: string;
  mayManage: boolean;
}) {
  const remove = useRemoveChatMember(roomId);
  return (
    <Popover>
      <PopoverTrigger asChild>
        <button type="button" className="rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring" data-testid="room-member-count">
          <Badge variant="secondary" className="gap-1 text-slate-800">
            <Users className="size-3" aria-hidden="true" />
            {memberCountLabel(count)}
          </Badge>
        </button>
      </PopoverTrigger>
      <PopoverContent align="end" className="p-3" aria-label="Room members">
        <p className="mb-2 text-sm font-semibold text-slate-900">Members</p>
        {!members ? (
          <p className="text-sm text-slate-600">Loading members...</p>
        ) : (
          <ul className="max-h-64 space-y-2 overflow-y-auto" data-testid="member-list">
            {members.map((member) => (
              <li key={member.userId} className="flex items-center gap-2 text-sm">
                <Initials text={initialsOf(member)} />
                <span className="min-w-0 flex-1 truncate">
                  {personName(member)}
                  {member.userId === user.id ? ' (you)' : ''}
                </span>
                <ChatRoleBadge role={member.role} />
                {mayManage && member.userId !== user.id && (
                  <Button
                    variant="ghost"
                    size="sm"
                    className="h-7 px-2 text-red-700"
                    disabled={remove.isPending}
                    aria-label={`Remove ${personName(member)}`}
                    onClick={() =>
                      remove.mutate(member.userId, {
                        onSuccess: () => toast({ title: 'Member removed', variant: 'success' }),
                        onError: (error) => reportMutationError(error, 'Failed to remove member', { withReason: true }),
                      })
                    }
                  >
                    Remove
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </PopoverContent>
    </Popover>
  );
}
