import { ROLE_LABELS, type TRole } from '#domain/roles';
import { Badge } from '../../components/ui/badge.tsx';
import { cn } from '../../lib/utils.ts';
import { CHAT_ROLE_CLASSES, OTHER_ROLE_CLASS } from './chat-format.ts';

/** A role badge in the chat's colours (spec section 6), not the sidebar's. */
export function ChatRoleBadge({ role, className }: { role: TRole; className?: string }) {
  const known = Object.hasOwn(CHAT_ROLE_CLASSES, role);
  return (
    <Badge
      variant="outline"
      data-role={role}
      data-testid="chat-role-badge"
      className={cn('border-transparent px-2 py-0 text-[11px]', known ? CHAT_ROLE_CLASSES[role] : OTHER_ROLE_CLASS, className)}
    >
      {known ? ROLE_LABELS[role] : String(role)}
    </Badge>
  );
}

/** The avatar circle with a person's initials; the name beside it is what is read out. */
export function Initials({ text, className }: { text: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn('flex size-8 shrink-0 items-center justify-center rounded-full bg-blue-100 text-xs font-semibold text-blue-900', className)}
    >
      {text}
    </span>
  );
}
