import { LogOut, Menu, Search, ShieldCheck, Stethoscope } from 'lucide-react';
import type { Ref } from 'react';
import { Link } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { ROLE_LABELS } from '#domain/roles';
import { useClinic } from '../../api/settings/clinic.ts';
import { LOGOUT_PATH, PRODUCT_NAME } from '../../lib/brand.ts';
import { fullName, userInitial } from '../../lib/user-display.ts';
import { Button } from '../ui/button.tsx';
import { Input } from '../ui/input.tsx';
import { DeferredPopover } from '../ui/deferred-popover.tsx';
import { NotificationBell } from './notification-bell.tsx';
import { SIDEBAR_ID } from './sidebar.tsx';

interface TopBarProps {
  user: TCurrentUser;
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
  toggleButtonRef: Ref<HTMLButtonElement>;
  headerRef: Ref<HTMLElement>;
}

export function TopBar({ user, sidebarOpen, onToggleSidebar, toggleButtonRef, headerRef }: TopBarProps) {
  // The clinic's own name (Admin Panel → Settings); the product's while it loads.
  const clinicName = useClinic().data?.name ?? PRODUCT_NAME;
  return (
    <header ref={headerRef} className="z-20 flex h-16 shrink-0 items-center gap-2 border-b bg-white px-2 sm:gap-4 sm:px-4">
      <Button
        ref={toggleButtonRef}
        variant="ghost"
        size="icon"
        aria-label={sidebarOpen ? 'Close sidebar' : 'Open sidebar'}
        aria-expanded={sidebarOpen}
        aria-controls={SIDEBAR_ID}
        onClick={onToggleSidebar}
        data-testid="sidebar-toggle"
      >
        <Menu className="size-5" aria-hidden="true" />
      </Button>

      <Link
        href="/"
        className="flex min-w-0 items-center gap-2 rounded-md font-semibold text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <span className="flex size-8 items-center justify-center rounded-md bg-primary text-white">
          <Stethoscope className="size-4" aria-hidden="true" />
        </span>
        <span className="truncate text-base sm:text-lg" title={clinicName} data-testid="clinic-name">
          {clinicName}
        </span>
      </Link>

      {/* Only for those who read patient records: for a supplier it would search nothing (issue 50). */}
      {can(user, 'patients.read') ? <SearchBox /> : null}

      <div className="ml-auto flex items-center gap-1 sm:gap-3">
        <NotificationBell />
        <UserSummary user={user} />
        {/* A plain form POST (full-page): the server ends the session and redirects to '/'. */}
        <form method="post" action={LOGOUT_PATH}>
          <Button type="submit" variant="ghost" size="sm" className="text-slate-700">
            <LogOut aria-hidden="true" />
            <span className="sr-only sm:not-sr-only">Logout</span>
          </Button>
        </form>
      </div>
    </header>
  );
}

/** Spec section 2: shown on wide screens; it has no search action yet, so submitting does nothing. */
function SearchBox() {
  return (
    <form role="search" className="ml-4 hidden max-w-md flex-1 lg:block" onSubmit={(event) => event.preventDefault()}>
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
        <Input
          type="search"
          name="q"
          aria-label="Search patients and appointments"
          placeholder="Search patients, appointments..."
          className="bg-slate-50 pl-9"
        />
      </div>
    </form>
  );
}

/**
 * The user's initial, name and role (spec section 2), and her profile menu: who she is signed in
 * as, and her own Security page (second factors, issue 33).
 */
function UserSummary({ user }: { user: TCurrentUser }) {
  return (
    <DeferredPopover
      trigger={{
        'aria-label': `Your account: ${fullName(user)}`,
        className:
          'flex items-center gap-2 rounded-md p-1 text-left hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        'data-testid': 'user-summary',
        children: (
          <>
            <span aria-hidden="true" className="flex size-9 items-center justify-center rounded-full bg-primary text-sm font-semibold text-white">
              {userInitial(user)}
            </span>
            <span className="hidden leading-tight sm:block">
              <span className="block text-sm font-medium text-slate-900">{fullName(user)}</span>
              <span className="block text-xs text-slate-600">{ROLE_LABELS[user.role]}</span>
            </span>
          </>
        ),
      }}
      contentProps={{ align: 'end', className: 'w-64 p-2', 'data-testid': 'profile-menu' }}
      content={(close) => (
        <>
          <div className="border-b px-2 pb-2">
            <p className="truncate text-sm font-medium text-slate-900">{fullName(user)}</p>
            <p className="truncate text-xs text-slate-600">{user.email}</p>
          </div>
          <nav aria-label="Your account" className="pt-1">
            <Link
              href="/account/security"
              onClick={close}
              className="flex items-center gap-2 rounded-md px-2 py-2 text-sm text-slate-800 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <ShieldCheck className="size-4 text-slate-600" aria-hidden="true" />
              Security
            </Link>
          </nav>
        </>
      )}
    />
  );
}
