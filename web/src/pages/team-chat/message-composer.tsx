import { Send } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { MAX_CHAT_ATTACHMENTS, type TChatMember } from '#domain/chat';
import { usePostChatMessage } from '../../api/chat/post-chat-message.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { FileUpload } from '../../components/upload/file-upload.tsx';
import { useFileUploader } from '../../components/upload/use-file-uploader.ts';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { cn } from '../../lib/utils.ts';
import { initialsOf, personName } from './chat-format.ts';
import { ChatRoleBadge, Initials } from './chat-role-badge.tsx';

export const MESSAGE_PLACEHOLDER = 'Message your team about this patient... (Press Enter to send, Shift+Enter for new line)';

/** At most this many members are offered for one '@'. */
const MENTION_CHOICES = 8;

/** The '@word' being typed just before the caret, if any. */
function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([^\s@]{0,30})$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]!.toLowerCase() };
}

/**
 * The message box (spec sections 2 and 5): Enter sends, Shift+Enter adds a line; one file at a
 * time through the upload widget; '@' offers the room's members, and the ones chosen are told.
 * Nothing is sent while the text is blank and no file is attached, or while a file uploads.
 */
export function MessageComposer({ roomId, user, members }: { roomId: string; user: TCurrentUser; members: TChatMember[] }) {
  const [text, setText] = useState('');
  const [mentioned, setMentioned] = useState<TChatMember[]>([]);
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const box = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const uploader = useFileUploader({ purpose: 'chat-attachment', maxFiles: MAX_CHAT_ATTACHMENTS });
  const post = usePostChatMessage(roomId);

  const choices = mention
    ? members
        .filter(
          (m) =>
            m.userId !== user.id &&
            personName(m)
              .toLowerCase()
              .split(/\s+/)
              .some((part) => part.startsWith(mention.query)),
        )
        .slice(0, MENTION_CHOICES)
    : [];
  const offering = mention !== null && choices.length > 0;
  const empty = text.trim() === '' && uploader.attachments.length === 0;
  const blocked = empty || uploader.busy || post.isPending;

  const track = (value: string, caret: number) => {
    const found = mentionAt(value, caret);
    setMention(found);
    if (found?.query !== mention?.query) setActive(0);
  };

  const choose = (member: TChatMember) => {
    if (!mention) return;
    const inserted = `@${personName(member)} `;
    const caret = box.current?.selectionStart ?? text.length;
    const next = text.slice(0, mention.start) + inserted + text.slice(caret);
    setText(next);
    setMentioned((list) => (list.some((m) => m.userId === member.userId) ? list : [...list, member]));
    setMention(null);
    const at = mention.start + inserted.length;
    requestAnimationFrame(() => {
      box.current?.focus();
      box.current?.setSelectionRange(at, at);
    });
  };

  const send = () => {
    if (blocked) return;
    const content = text.trim();
    // Only the mentions still in the text are told.
    const mentionedUserIds = mentioned.filter((m) => content.includes(`@${personName(m)}`)).map((m) => m.userId);
    const attachments = uploader.attachments.map((file) => ({ name: file.name, size: file.size, url: file.objectPath, type: file.type }));
    // Spec section 4: sending clears the box at once; a failed send gives the text back.
    const typed = text;
    setText('');
    setMention(null);
    post.mutate(
      { content, attachments, mentionedUserIds },
      {
        onSuccess: () => {
          setMentioned([]);
          uploader.reset();
        },
        onError: (error) => {
          setText((now) => (now === '' ? typed : now));
          reportMutationError(error, 'Failed to send message', { withReason: true });
        },
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (offering) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((i) => (i + step + choices.length) % choices.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        choose(choices[Math.min(active, choices.length - 1)]!);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setMention(null);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      send();
    }
  };

  return (
    <form
      aria-label="Send a message"
      className="space-y-2 border-t bg-white p-3"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <div className="relative">
        {offering && (
          <ul
            id={listId}
            role="listbox"
            aria-label="Mention a member"
            data-testid="mention-options"
            className="absolute bottom-full left-0 z-20 mb-1 max-h-56 w-full max-w-sm overflow-y-auto rounded-md border bg-background py-1 shadow-lg"
          >
            {choices.map((member, i) => (
              <li
                key={member.userId}
                id={`${listId}-${member.userId}`}
                role="option"
                aria-selected={i === active}
                className={cn('flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm', i === active && 'bg-blue-50 text-blue-900')}
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(member);
                }}
                onMouseEnter={() => setActive(i)}
              >
                <Initials text={initialsOf(member)} className="size-6 text-[10px]" />
                <span className="min-w-0 flex-1 truncate">{personName(member)}</span>
                <ChatRoleBadge role={member.role} />
              </li>
            ))}
          </ul>
        )}
        <div className="flex items-end gap-2">
          <textarea
            ref={box}
            aria-label="Message"
            aria-autocomplete="list"
            aria-controls={offering ? listId : undefined}
            aria-activedescendant={offering && choices[active] ? `${listId}-${choices[active].userId}` : undefined}
            data-testid="message-box"
            placeholder={MESSAGE_PLACEHOLDER}
            rows={2}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              track(event.target.value, event.target.selectionStart);
            }}
            onSelect={(event) => track(event.currentTarget.value, event.currentTarget.selectionStart)}
            onBlur={() => setMention(null)}
            onKeyDown={onKeyDown}
            className="field-sizing-content min-h-[60px] max-h-[120px] min-w-0 flex-1 resize-none rounded-md border border-input bg-background px-3 py-2 text-sm placeholder:text-slate-500 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1"
          />
          <Button type="submit" size="icon" className="size-[60px] shrink-0" disabled={blocked} aria-label="Send message">
            {post.isPending ? <Spinner className="size-5 text-white" /> : <Send aria-hidden="true" className="size-5" />}
          </Button>
        </div>
      </div>
      <FileUpload
        uploader={uploader}
        purpose="chat-attachment"
        label="Attach file"
        hint="One file, max 10MB"
        multiple={false}
        disabled={post.isPending || uploader.entries.length >= MAX_CHAT_ATTACHMENTS}
      />
      {uploader.busy && (
        <p className="flex items-center gap-2 text-xs text-slate-600" role="status">
          <Spinner className="size-3.5" />
          Waiting for the upload before sending…
        </p>
      )}
    </form>
  );
}
