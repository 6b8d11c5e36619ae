import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { Redirect, useLocation } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { SET_PASSWORD_PATH } from '#domain/sign-in-paths';
import { AppLayout } from './components/layout/app-layout.tsx';
import { EnrolDueBanner } from './components/second-factor/enrol-due-banner.tsx';
import { LeaveForSignIn } from './components/leave-for-sign-in.tsx';
import { Spinner } from './components/ui/spinner.tsx';
import { Toaster } from './components/ui/toaster.tsx';
import { PRODUCT_NAME, SIGN_IN_PATH } from './lib/brand.ts';
import { queryClient } from './lib/query-client.ts';
import { usePreloaded } from './lib/preloadable.ts';
import { pathAfterSignIn } from './lib/return-path.ts';
import type { TSessionUser } from './lib/session.ts';
import { NotFoundPage } from './pages/not-found/not-found-page.tsx';
import { findScreen, mayOpen, navigationFor, preloadScreens } from './screens.ts';

/**
 * The code of the screen the page opens on (the dashboard, where signing in leads, when it is on
 * no screen yet): it came with this chunk (the dashboard) or is on its way. app.tsx draws the app
 * once it is here too, so no spinner flashes between layout and screen.
 */
export const firstScreenLoaded: Promise<unknown> =
  (findScreen(window.location.pathname) ?? findScreen('/'))?.Screen?.load().catch(() => undefined) ?? Promise.resolve();

/**
 * The app for a signed-in user, loaded only after the sign-in check found one. `user` is null
 * once the session is gone while the page is open: the toast, then the login path.
 * @public app.tsx draws it from the module `signedInApp` loads (signed-in-start.ts).
 */
export function SignedInApp({ user }: { user: TSessionUser | null }) {
  return (
    <QueryClientProvider client={queryClient}>
      {user ? <SignedInRoutes user={user} /> : <LeaveForSignIn />}
      <Toaster />
    </QueryClientProvider>
  );
}

const EnrolRequiredPage = lazy(async () => ({ default: (await import('./pages/account/enrol-required-page.tsx')).EnrolRequiredPage }));
// Seldom opened, and with the set-password form's schemas: not part of the frame (issue 56).
const LinkWhileSignedIn = lazy(async () => ({ default: (await import('./pages/set-password/link-while-signed-in.tsx')).LinkWhileSignedIn }));

function SignedInRoutes({ user }: { user: TSessionUser }) {
  const [location] = useLocation();
  const screen = findScreen(location);
  // The one access gate: a screen never re-checks its own capability. The web only hides;
  // the server refuses anyway.
  const Content = usePreloaded(screen ? (screen.Denied && !mayOpen(user, screen) ? screen.Denied : screen.Screen) : null);
  useEffect(() => {
    document.title = screen ? `${screen.title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [screen]);

  // The clinic requires a second factor and her grace has passed: enrolling is all there is.
  if (user.secondFactor?.status === 'overdue') {
    return (
      <Suspense fallback={<ScreenLoading />}>
        <EnrolRequiredPage user={user} />
      </Suspense>
    );
  }
  // Just signed in (or already): on to the page that was asked for.
  if (location === SIGN_IN_PATH) return <Redirect to={pathAfterSignIn()} replace />;
  if (location === SET_PASSWORD_PATH) {
    return (
      <Suspense fallback={<ScreenLoading />}>
        <LinkWhileSignedIn user={user} />
      </Suspense>
    );
  }
  if (!screen) return <NotFoundPage />;
  // One layout instance across screens, so sidebar state survives navigation. A screen whose
  // code is here draws at once; the parts of a screen that load on use (a form, the calendar)
  // suspend to the boundary here.
  return (
    <AppLayout user={user} navigation={navigationFor(user)}>
      {user.secondFactor && <EnrolDueBanner enrolment={user.secondFactor} />}
      <Suspense fallback={<ScreenLoading />}>{Content ? <Content user={user} /> : <ScreenLoading />}</Suspense>
      <PreloadScreens user={user} ready={Content !== undefined} />
    </AppLayout>
  );
}

/** While a screen's code arrives: the layout stays, the content area shows a spinner. */
function ScreenLoading() {
  return (
    <div className="flex justify-center p-10" role="status" aria-live="polite">
      <Spinner className="size-6" />
      <span className="sr-only">Loading...</span>
    </div>
  );
}

/**
 * Once the first screen has its code and its data (no query still fetching), the code of the
 * other screens loads while the user reads it, so a first visit to one waits only for its data.
 */
function PreloadScreens({ user, ready }: { user: TCurrentUser; ready: boolean }) {
  const queryClient = useQueryClient();
  const stop = useRef<() => void>(null);
  useEffect(() => () => stop.current?.(), []);
  useEffect(() => {
    if (!ready || stop.current) return;
    const unsubscribe = queryClient.getQueryCache().subscribe(() => settle());
    function settle(): void {
      if (stop.current || queryClient.isFetching() > 0) return;
      unsubscribe();
      stop.current = preloadScreens(user);
    }
    // The screen's queries started in the effects before this one (its components come first).
    settle();
    return unsubscribe;
  }, [queryClient, user, ready]);
  return null;
}
