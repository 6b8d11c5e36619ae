import { can } from '#domain/permissions';
import { CalendarDays, X } from 'lucide-react';
import type { Ref } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { useDashboardStats } from '../../api/dashboard/dashboard-stats.ts';
import { PRODUCT_NAME } from '../../lib/brand.ts';
import { formatBadgeCount, fullName, userInitial } from '../../lib/user-display.ts';
import { cn } from '../../lib/utils.ts';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { RoleBadge } from './role-badge.tsx';
import type { TNavEntry, TNavigation } from './navigation.ts';

export const SIDEBAR_ID = 'app-sidebar';

interface SidebarProps {
  user: TCurrentUser;
  isMobile: boolean;
  open: boolean;
  onClose: () => void;
  onNavigate: () => void;
  closeButtonRef: Ref<HTMLButtonElement>;
  navigation: TNavigation;
}

export function Sidebar({ user, isMobile, open, onClose, onNavigate, closeButtonRef, navigation }: SidebarProps) {
  const { data: stats } = useDashboardStats();
  const hidden = !open;
  const adminEntries = navigation.admin;

  return (
    <aside
      id={SIDEBAR_ID}
      aria-label="Sidebar"
      data-state={open ? 'open' : 'closed'}
      // Off-screen on small screens it must also leave the tab order and the accessibility tree.
      inert={isMobile && hidden}
      className={cn(
        'flex w-64 shrink-0 flex-col border-r bg-white',
        isMobile ? 'fixed inset-y-0 left-0 z-40 shadow-xl transition-[transform,visibility] duration-300 ease-in-out' : 'overflow-y-auto',
        isMobile && (open ? 'visible translate-x-0' : 'invisible -translate-x-full'),
        !isMobile && hidden && 'hidden',
      )}
    >
      {isMobile && (
        <div className="flex h-16 items-center justify-between border-b px-4">
          <span className="font-semibold text-primary">{PRODUCT_NAME}</span>
          <Button ref={closeButtonRef} variant="ghost" size="icon" aria-label="Close sidebar" onClick={onClose}>
            <X aria-hidden="true" />
          </Button>
        </div>
      )}

      <nav aria-label="Main navigation" className="flex-1 overflow-y-auto px-3 py-4">
        <SidebarList entries={navigation.main} unreadMessages={stats?.unreadMessages ?? 0} onNavigate={onNavigate} />
        {adminEntries.length > 0 && (
          <div role="group" aria-labelledby="sidebar-admin-heading" className="mt-6">
            <h2 id="sidebar-admin-heading" className="px-3 pb-2 text-xs font-semibold uppercase tracking-wider text-slate-600">
              Administration
            </h2>
            <SidebarList entries={adminEntries} unreadMessages={0} onNavigate={onNavigate} />
          </div>
        )}
      </nav>

      <div className="space-y-3 border-t p-4">
        {/* The top bar has no room for the name on small screens, so it is shown here instead. */}
        {isMobile && <SignedInAs user={user} />}
        {/* The clinic's visits are not a supplier's business (she reads no appointments): her sidebar leaves the count out. */}
        {can(user, 'appointments.read') && (
          <div className="flex items-center gap-3 rounded-lg bg-blue-50 p-3" data-testid="today-appointments">
            <CalendarDays className="size-5 text-primary" aria-hidden="true" />
            <div>
              <p className="text-xs text-slate-700">Today's Appointments</p>
              <p className="text-lg font-semibold text-slate-900">{stats ? stats.todayAppointments : '–'}</p>
            </div>
          </div>
        )}
        <div className="flex items-center justify-between" data-testid="current-role">
          <span className="text-xs font-medium text-slate-700">Current Role</span>
          <RoleBadge role={user.role} />
        </div>
      </div>
    </aside>
  );
}

/**
 * The entry the open address is: one that leads to this path with this query (a tab of another
 * screen, Settings at /admin?tab=settings) before the one whose own path it is.
 */
function currentEntry(entries: readonly TNavEntry[], location: string, search: string): TNavEntry | undefined {
  const params = new URLSearchParams(search);
  const toTab = entries.find((entry) => {
    if (!entry.sidebar.href) return false;
    const [path, query = ''] = entry.sidebar.href.split('?');
    return path === location && [...new URLSearchParams(query)].every(([name, value]) => params.get(name) === value);
  });
  return toTab ?? entries.find((entry) => !entry.sidebar.href && entry.path === location);
}

function SidebarList({ entries, unreadMessages, onNavigate }: { entries: readonly TNavEntry[]; unreadMessages: number; onNavigate: () => void }) {
  const [location] = useLocation();
  const current = currentEntry(entries, location, useSearch());
  return (
    <ul className="space-y-1">
      {entries.map((entry) => (
        <li key={entry.path}>
          <SidebarLink entry={entry} active={entry === current} badge={entry.sidebar.unreadBadge ? unreadMessages : 0} onNavigate={onNavigate} />
        </li>
      ))}
    </ul>
  );
}

const entryClasses = 'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium';

function SidebarLink({ entry, active, badge, onNavigate }: { entry: TNavEntry; active: boolean; badge: number; onNavigate: () => void }) {
  const Icon = entry.sidebar.icon;
  return (
    <Link
      href={entry.sidebar.href ?? entry.path}
      onClick={onNavigate}
      aria-current={active ? 'page' : undefined}
      className={cn(
        entryClasses,
        'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        active ? 'bg-blue-50 text-primary' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
      )}
    >
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      <span className="flex-1">{entry.sidebar.label}</span>
      {badge > 0 && (
        <Badge variant="destructive" className="px-2" data-testid="unread-messages-badge">
          {formatBadgeCount(badge)}
          <span className="sr-only"> unread</span>
        </Badge>
      )}
    </Link>
  );
}

function SignedInAs({ user }: { user: TCurrentUser }) {
  return (
    <div className="flex items-center gap-3" data-testid="sidebar-user">
      <span aria-hidden="true" className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-white">
        {userInitial(user)}
      </span>
      <p className="min-w-0 truncate text-sm font-medium text-slate-900">{fullName(user)}</p>
    </div>
  );
}
