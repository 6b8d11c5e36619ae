import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { useIsMobile } from '../../hooks/use-is-mobile.ts';
import { LiveConnectionProvider } from '../../live/live-provider.tsx';
import { MAIN_CONTENT_ID } from '../../lib/main-content.ts';
import { hideWhileKept } from '../../lib/kept-page.ts';
import { checkSession } from '../../lib/session.ts';
import { useToastsBelow } from '../../lib/toast-offset.ts';
import type { TNavigation } from './navigation.ts';
import { Sidebar } from './sidebar.tsx';
import { TopBar } from './top-bar.tsx';

/** The frame of every signed-in screen (spec section 2): top bar, sidebar, main content. */
export function AppLayout({ user, navigation, children }: { user: TCurrentUser; navigation: TNavigation; children: ReactNode }) {
  const isMobile = useIsMobile();
  // Separate states: the small-screen drawer starts closed, the wide-screen sidebar open.
  const [mobileOpen, setMobileOpen] = useState(false);
  const [desktopOpen, setDesktopOpen] = useState(true);
  const sidebarOpen = isMobile ? mobileOpen : desktopOpen;
  const toggleRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const headerRef = useRef<HTMLElement>(null);
  useToastsBelow(headerRef);
  useEffect(() => hideWhileKept(user.id), [user.id]);

  useSessionRecheckOnNavigation();

  const closeMobile = (returnFocus: boolean) => {
    setMobileOpen(false);
    if (returnFocus) toggleRef.current?.focus();
  };

  useEffect(() => {
    if (!isMobile || !mobileOpen) return;
    closeRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeMobile(true);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [isMobile, mobileOpen]);

  return (
    // The one live socket of the signed-in page: it lives as long as the layout and its user.
    <LiveConnectionProvider userId={user.id}>
      <div className="flex h-full flex-col bg-slate-50">
        <a
          href={`#${MAIN_CONTENT_ID}`}
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
        >
          Skip to main content
        </a>
        <TopBar
          user={user}
          sidebarOpen={sidebarOpen}
          toggleButtonRef={toggleRef}
          headerRef={headerRef}
          onToggleSidebar={() => (isMobile ? setMobileOpen((open) => !open) : setDesktopOpen((open) => !open))}
        />
        <div className="relative flex min-h-0 flex-1">
          <Sidebar
            navigation={navigation}
            user={user}
            isMobile={isMobile}
            open={sidebarOpen}
            closeButtonRef={closeRef}
            onClose={() => closeMobile(true)}
            // Following a link closes the drawer on small screens; on wide screens it stays.
            onNavigate={() => isMobile && closeMobile(false)}
          />
          {isMobile && mobileOpen && (
            <div aria-hidden="true" data-testid="sidebar-overlay" className="fixed inset-0 z-30 bg-black/50" onClick={() => closeMobile(true)} />
          )}
          {/* Relative: what a screen positions absolutely (a screen reader's text, sr-only) is placed, and
              clipped, within the scrolling content, never below the page, which would scroll the page too. */}
          <main id={MAIN_CONTENT_ID} tabIndex={-1} className="relative min-w-0 flex-1 overflow-y-auto p-4 focus:outline-none md:p-6">
            {children}
          </main>
        </div>
      </div>
    </LiveConnectionProvider>
  );
}

/**
 * Entering another signed-in screen re-checks the session, so a session that expired (or was
 * revoked) while the page stayed open is noticed at the next screen change, not only when a
 * screen happens to fetch. The cached user stays on screen while the check runs.
 */
function useSessionRecheckOnNavigation(): void {
  const [location] = useLocation();
  const lastLocation = useRef(location);
  useEffect(() => {
    if (location === lastLocation.current) return;
    lastLocation.current = location;
    void checkSession();
  }, [location]);
}
