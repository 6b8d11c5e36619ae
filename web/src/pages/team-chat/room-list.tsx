import type { UseQueryResult } from '@tanstack/react-query';
import { MessageSquare, Plus } from 'lucide-react';
import { Link } from 'wouter';
import type { TChatRoom } from '#domain/chat';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { formatDayTime } from '#domain/clinic-time';
import { ErrorState } from '../../components/error-state.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { formatBadgeCount } from '../../lib/user-display.ts';
import { cn } from '../../lib/utils.ts';
import { memberCountLabel } from './chat-format.ts';
import { useDeferredQuery } from '../../lib/deferred-query.ts';

export const ROOM_SKELETONS = 4;

/** The left column, 'Patient Chat Rooms' (spec section 2): every room the user sees, latest activity first. */
export function RoomList({
  className,
  query,
  selectedId,
  mayCreate,
  onNewRoom,
}: {
  className?: string;
  query: UseQueryResult<TChatRoom[]>;
  selectedId: string | null;
  mayCreate: boolean;
  onNewRoom: () => void;
}) {
  const shown = useDeferredQuery(query);
  return (
    <section
      aria-labelledby="chat-rooms-heading"
      data-testid="room-list"
      className={cn('min-h-0 flex-col overflow-hidden rounded-lg border bg-white shadow-sm', className)}
    >
      {/* The column is a third of the screen: where heading and button do not fit side by side
          (1280 px with the sidebar open, say), the button goes under the heading, never past the card. */}
      <div className="flex flex-wrap items-center justify-between gap-2 border-b px-4 py-3">
        <h2 id="chat-rooms-heading" className="whitespace-nowrap font-semibold text-slate-900">
          Patient Chat Rooms
        </h2>
        {mayCreate && (
          <Button size="sm" className="shrink-0 px-2.5" onClick={onNewRoom}>
            <Plus aria-hidden="true" />
            New Room
          </Button>
        )}
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <RoomListBody query={shown} selectedId={selectedId} mayCreate={mayCreate} />
      </div>
    </section>
  );
}

function RoomListBody({ query, selectedId, mayCreate }: { query: UseQueryResult<TChatRoom[]>; selectedId: string | null; mayCreate: boolean }) {
  const { timeZone } = useClinicTimeZone();
  if (query.isPending) {
    return (
      <div className="p-3" data-testid="rooms-loading">
        <p role="status" className="mb-3 text-center text-sm text-slate-600">
          Loading chat rooms...
        </p>
        <ul className="space-y-2">
          {Array.from({ length: ROOM_SKELETONS }, (_, i) => (
            <li key={i} className="space-y-2 rounded-md border p-3">
              <Skeleton className="h-4 w-2/3" />
              <Skeleton className="h-3 w-full" />
              <Skeleton className="h-3 w-1/3" />
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (query.isError) {
    return (
      <div className="p-3">
        <ErrorState title="Could not load chat rooms" error={query.error} onRetry={() => void query.refetch()} />
      </div>
    );
  }
  if (query.data.length === 0) {
    return (
      <div data-testid="rooms-empty" className="flex flex-col items-center gap-2 p-8 text-center text-sm text-slate-600">
        <MessageSquare className="size-8 text-slate-400" aria-hidden="true" />
        <p className="font-medium text-slate-900">No chat rooms available</p>
        {mayCreate && <p>Create a new room to get started</p>}
      </div>
    );
  }
  return (
    <ul className="divide-y" aria-label="Chat rooms">
      {query.data.map((room) => (
        <RoomEntry key={room.id} room={room} selected={room.id === selectedId} timeZone={timeZone} />
      ))}
    </ul>
  );
}

function RoomEntry({ room, selected, timeZone }: { room: TChatRoom; selected: boolean; timeZone: string }) {
  return (
    <li>
      <Link
        href={`/team-chat?room=${room.id}`}
        aria-current={selected ? 'true' : undefined}
        data-testid="room-entry"
        data-room-id={room.id}
        className={cn(
          'block border-l-4 px-4 py-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring',
          selected ? 'border-l-primary bg-blue-50' : 'border-l-transparent hover:bg-slate-50',
        )}
      >
        <span className="flex items-start justify-between gap-2">
          <span className="min-w-0 break-words font-medium text-slate-900" data-testid="room-name">
            {room.name}
          </span>
          {room.unreadCount > 0 && (
            <Badge variant="destructive" className="shrink-0 px-2" data-testid="room-unread">
              {formatBadgeCount(room.unreadCount)}
              <span className="sr-only"> unread</span>
            </Badge>
          )}
        </span>
        {room.description && <span className="mt-0.5 block line-clamp-2 break-words text-slate-600">{room.description}</span>}
        <span className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-600">
          <time dateTime={room.lastActivityAt} data-testid="room-activity">
            {formatDayTime(room.lastActivityAt, timeZone)}
          </time>
          <span data-testid="room-members">{memberCountLabel(room.memberCount)}</span>
          {!room.isMember && <span className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-700">Not a member</span>}
        </span>
      </Link>
    </li>
  );
}
