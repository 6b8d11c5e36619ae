import type { LucideIcon } from 'lucide-react';

/** How a screen appears in the sidebar (the screen registry, web/src/screens.ts, says which do). */
export interface TSidebarEntry {
  label: string;
  icon: LucideIcon;
  /** 'admin': the Administration group, shown only when can(user, 'admin.panel'). */
  group: 'main' | 'admin';
  /** Carries the unread-message badge. */
  unreadBadge?: boolean;
  /**
   * Where the link leads when that is not the screen's own path: a tab of another screen
   * (Settings is the Admin Panel's tab, /admin?tab=settings). The entry is the current one
   * while that address is open.
   */
  href?: string;
}

export interface TNavEntry {
  path: string;
  sidebar: TSidebarEntry;
}

/**
 * The sidebar's entries for the signed-in user, by group. Handed down by the app, which knows
 * the screens: the layout draws them without importing the pages they lead to.
 */
export interface TNavigation {
  main: readonly TNavEntry[];
  admin: readonly TNavEntry[];
}
