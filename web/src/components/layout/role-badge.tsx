import type { TRole } from '#domain/roles';
import { ROLE_LABELS } from '#domain/roles';
import { Badge } from '../ui/badge.tsx';
import { cn } from '../../lib/utils.ts';

/**
 * Spec section 6: sidebar and dashboard colours (admin red, nurse blue, scribe green,
 * scheduler purple, supplier orange). The chat uses a different palette, kept with the chat.
 * Dark text on light tints keeps contrast above 4.5:1.
 */
const ROLE_BADGE_CLASSES: Record<TRole, string> = {
  admin: 'bg-red-100 text-red-800',
  nurse: 'bg-blue-100 text-blue-800',
  scribe: 'bg-green-100 text-green-800',
  scheduler: 'bg-purple-100 text-purple-800',
  supplier: 'bg-orange-100 text-orange-800',
};

export function RoleBadge({ role, className }: { role: TRole; className?: string }) {
  return (
    <Badge variant="outline" data-role={role} className={cn('border-transparent', ROLE_BADGE_CLASSES[role], className)}>
      {ROLE_LABELS[role]}
    </Badge>
  );
}
