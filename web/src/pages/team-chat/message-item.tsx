import { Bell, CalendarDays, FileText, FlaskConical, MessageSquare, Package, Paperclip, Pencil, Pill, SmilePlus, Trash2, type LucideIcon } from 'lucide-react';
import { memo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import type { TChatMember, TChatMessage, TChatMessageType } from '#domain/chat';
import { labOrderHref } from '#domain/lab-links';
import { can } from '#domain/permissions';
import { useDeleteChatMessage } from '../../api/chat/delete-chat-message.ts';
import { useEditChatMessage } from '../../api/chat/edit-chat-message.ts';
import { useToggleChatReaction } from '../../api/chat/toggle-chat-reaction.ts';
import { formatDayTime } from '#domain/clinic-time';
import { Button } from '../../components/ui/button.tsx';
import { Popover, PopoverClose, PopoverContent, PopoverTrigger } from '../../components/ui/popover.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { cn } from '../../lib/utils.ts';
import { DELETED_TEXT, initialsOf, MESSAGE_TYPE_LABELS, personName, QUICK_REACTIONS } from './chat-format.ts';
import { ChatRoleBadge, Initials } from './chat-role-badge.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { sizeInKb } from '../../lib/file-size.ts';

/** Spec section 4: each message type has its own icon. */
const TYPE_ICONS: Record<TChatMessageType, LucideIcon> = {
  message: MessageSquare,
  note_update: FileText,
  appointment_update: CalendarDays,
  lab_result: FlaskConical,
  prescription_update: Pill,
  supply_request: Package,
  system_notification: Bell,
};

/**
 * The text with each mentioned member's '@First Last' marked out. Always text nodes: a message
 * is never read as HTML, whatever it holds.
 */
export function withMentions(content: string, mentioned: readonly string[]): ReactNode[] {
  const names = [...new Set(mentioned.filter(Boolean))].sort((a, b) => b.length - a.length);
  if (names.length === 0) return [content];
  const parts: ReactNode[] = [];
  let rest = content;
  let key = 0;
  while (rest.length > 0) {
    let at = -1;
    let found = '';
    for (const name of names) {
      const i = rest.indexOf(`@${name}`);
      if (i !== -1 && (at === -1 || i < at)) {
        at = i;
        found = name;
      }
    }
    if (at === -1) {
      parts.push(rest);
      break;
    }
    if (at > 0) parts.push(rest.slice(0, at));
    parts.push(
      <span key={key++} className="rounded bg-blue-100 px-0.5 font-medium text-blue-900" data-testid="mention">
        @{found}
      </span>,
    );
    rest = rest.slice(at + found.length + 1);
  }
  return parts;
}

/**
 * One message (spec section 2): who sent it (initials, name, role in the chat's colours), its
 * type's icon, the time, '(edited)', the text, its file, what it relates to, and reactions.
 * The sender may edit or delete her own.
 */
export const MessageItem = memo(function MessageItem({
  message,
  user,
  roomId,
  members,
  timeZone,
}: {
  message: TChatMessage;
  user: TCurrentUser;
  roomId: string;
  members: TChatMember[];
  /** The clinic's, in which the message's time is shown. */
  timeZone: string;
}) {
  const own = message.senderId === user.id;
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteChatMessage(roomId);
  const Icon = TYPE_ICONS[message.messageType] ?? MessageSquare;
  const typeLabel = MESSAGE_TYPE_LABELS[message.messageType] ?? 'Message';
  const name = personName(message.sender);
  const mentioned = message.mentionedUserIds.flatMap((id) => {
    const member = members.find((m) => m.userId === id);
    return member ? [personName(member)] : [];
  });

  return (
    <li
      data-testid="chat-message"
      data-message-id={message.id}
      data-own={own ? 'true' : undefined}
      className={cn('group flex gap-3 rounded-md px-2 py-2', own ? 'bg-blue-50/60' : 'hover:bg-slate-50')}
    >
      <Initials text={initialsOf(message.sender)} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
          <span className="font-semibold text-slate-900" data-testid="message-sender">
            {name}
          </span>
          <ChatRoleBadge role={message.sender.role} />
          <Icon className="size-3.5 text-slate-500" role="img" aria-label={typeLabel} data-testid="message-type" data-type={message.messageType} />
          <time dateTime={message.createdAt} className="text-xs text-slate-600">
            {formatDayTime(message.createdAt, timeZone)}
          </time>
          {message.isEdited && !message.isDeleted && (
            <span className="text-xs text-slate-600" data-testid="message-edited">
              (edited)
            </span>
          )}
        </div>

        {message.isDeleted ? (
          <p className="mt-0.5 text-sm italic text-slate-600" data-testid="message-deleted">
            {DELETED_TEXT}
          </p>
        ) : editing ? (
          <EditMessage roomId={roomId} message={message} onDone={() => setEditing(false)} />
        ) : (
          message.content && (
            <p className="mt-0.5 whitespace-pre-wrap break-words text-sm text-slate-900" data-testid="message-content">
              {withMentions(message.content, mentioned)}
            </p>
          )
        )}

        {!message.isDeleted && message.attachments.length > 0 && (
          <ul className="mt-1 space-y-1" aria-label="Attached files">
            {message.attachments.map((file) => (
              <li key={file.url} className="flex max-w-full items-center gap-2 text-sm" data-testid="message-attachment">
                <Paperclip className="size-4 shrink-0 text-slate-500" aria-hidden="true" />
                <a
                  href={file.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="min-w-0 truncate font-medium text-blue-800 underline-offset-2 hover:underline"
                >
                  {file.name}
                  <span className="sr-only"> (opens in a new tab)</span>
                </a>
                <span className="shrink-0 text-xs text-slate-600">{sizeInKb(file.size)}</span>
              </li>
            ))}
          </ul>
        )}

        {message.relatedEntityType && (
          <p className="mt-1 text-xs text-slate-600" data-testid="message-related">
            Related: {message.relatedEntityType}
            {/* A lab order is one click away for those who may read it (the message itself carries no values). */}
            {message.relatedEntityType === 'lab_order' && message.relatedEntityId && can(user, 'labs.read') && (
              <>
                {' · '}
                <Link href={labOrderHref(message.relatedEntityId)} className="font-medium text-blue-800 hover:underline">
                  Open the lab order
                </Link>
              </>
            )}
          </p>
        )}

        {!message.isDeleted && !editing && (
          <div className="mt-1 flex flex-wrap items-center gap-1">
            <Reactions roomId={roomId} message={message} />
            {own && (
              <>
                <Button variant="ghost" size="sm" className="h-7 px-2 text-xs text-slate-700" onClick={() => setEditing(true)} aria-label="Edit message">
                  <Pencil aria-hidden="true" className="size-3.5" />
                  Edit
                </Button>
                <Button variant="ghost" size="sm" className="h-7 px-2 text-xs text-red-700" onClick={() => setDeleting(true)} aria-label="Delete message">
                  <Trash2 aria-hidden="true" className="size-3.5" />
                  Delete
                </Button>
              </>
            )}
          </div>
        )}
      </div>
      {own && (
        <ConfirmDialog
          open={deleting}
          title="Delete this message?"
          description="It is removed for everyone in the room. This cannot be undone."
          confirmLabel="Delete message"
          pending={remove.isPending}
          onCancel={() => setDeleting(false)}
          onConfirm={() =>
            remove.mutate(message.id, {
              onSuccess: () => setDeleting(false),
              onError: (error) => reportMutationError(error, 'Failed to delete message', { withReason: true }),
            })
          }
        />
      )}
    </li>
  );
});

function EditMessage({ roomId, message, onDone }: { roomId: string; message: TChatMessage; onDone: () => void }) {
  const [text, setText] = useState(message.content);
  const edit = useEditChatMessage(roomId);
  const save = () => {
    const content = text.trim();
    if (!content || edit.isPending) return;
    if (content === message.content) return onDone();
    edit.mutate(
      { messageId: message.id, content },
      { onSuccess: onDone, onError: (error) => reportMutationError(error, 'Failed to update message', { withReason: true }) },
    );
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onDone();
    }
  };
  return (
    <div className="mt-1 space-y-2">
      <Textarea
        aria-label="Edit message"
        autoFocus
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        className="field-sizing-content min-h-[60px] max-h-[120px] resize-none"
        disabled={edit.isPending}
      />
      <div className="flex gap-2">
        <Button size="sm" className="h-8" onClick={save} disabled={!text.trim() || edit.isPending}>
          {edit.isPending && <Spinner className="size-4 text-white" />}
          Save
        </Button>
        <Button size="sm" variant="outline" className="h-8" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </div>
  );
}

/** The message's reactions with their counts (press one to add or take back yours), and a few to add. */
function Reactions({ roomId, message }: { roomId: string; message: TChatMessage }) {
  const toggle = useToggleChatReaction(roomId);
  const react = (reaction: string, add: boolean) =>
    toggle.mutate(
      { messageId: message.id, reaction, add },
      { onError: (error) => reportMutationError(error, 'Failed to update reaction', { withReason: true }) },
    );
  const present = message.reactions.filter((r) => r.count > 0);
  return (
    <>
      {present.map((r) => (
        <button
          key={r.reaction}
          type="button"
          aria-pressed={r.mine}
          aria-label={`${r.reaction} ${r.count}${r.mine ? ', yours: press to remove' : ': press to add yours'}`}
          data-testid="message-reaction"
          disabled={toggle.isPending}
          onClick={() => react(r.reaction, !r.mine)}
          className={cn(
            'inline-flex h-7 items-center gap-1 rounded-full border px-2 text-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
            r.mine ? 'border-blue-300 bg-blue-100 text-blue-900' : 'border-slate-200 bg-white text-slate-800 hover:bg-slate-100',
          )}
        >
          <span aria-hidden="true">{r.reaction}</span>
          <span aria-hidden="true">{r.count}</span>
        </button>
      ))}
      <Popover>
        <PopoverTrigger asChild>
          <Button variant="ghost" size="sm" className="h-7 px-2 text-xs text-slate-700" aria-label="Add reaction">
            <SmilePlus aria-hidden="true" className="size-3.5" />
          </Button>
        </PopoverTrigger>
        <PopoverContent className="flex w-auto gap-1 p-1" aria-label="Reactions">
          {QUICK_REACTIONS.map((reaction) => {
            const mine = message.reactions.some((r) => r.reaction === reaction && r.mine);
            return (
              <PopoverClose asChild key={reaction}>
                <button
                  type="button"
                  aria-label={`React ${reaction}`}
                  aria-pressed={mine}
                  className={cn(
                    'size-9 rounded-md text-lg hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                    mine && 'bg-blue-100',
                  )}
                  onClick={() => react(reaction, !mine)}
                >
                  {reaction}
                </button>
              </PopoverClose>
            );
          })}
        </PopoverContent>
      </Popover>
    </>
  );
}
