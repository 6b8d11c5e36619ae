import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { Redirect, useLocation } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { SET_PASSWORD_PATH } from '#domain/users';
import { AppLayout } from './components/layout/app-layout.tsx';
import { LeaveForSignIn } from './components/leave-for-sign-in.tsx';
import { Spinner } from './components/ui/spinner.tsx';
import { Toaster } from './components/ui/toaster.tsx';
import { PRODUCT_NAME, SIGN_IN_PATH } from './lib/brand.ts';
import { queryClient } from './lib/query-client.ts';
import { pathAfterSignIn } from './lib/return-path.ts';
import { NotFoundPage } from './pages/not-found/not-found-page.tsx';
import { LinkWhileSignedIn } from './pages/set-password/link-while-signed-in.tsx';
import { findScreen, mayOpen, navigationFor } from './screens.ts';

/**
 * The app for a signed-in user, loaded only after the sign-in check found one. `user` is null
 * once the session is gone while the page is open: the toast, then the login path.
 */
export function SignedInApp({ user }: { user: TCurrentUser | null }) {
  return (
    <QueryClientProvider client={queryClient}>
      {user ? <SignedInRoutes user={user} /> : <LeaveForSignIn />}
      <Toaster />
    </QueryClientProvider>
  );
}

function SignedInRoutes({ user }: { user: TCurrentUser }) {
  const [location] = useLocation();
  const screen = findScreen(location);
  useEffect(() => {
    document.title = screen ? `${screen.title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [screen]);

  // Just signed in (or already): on to the page that was asked for.
  if (location === SIGN_IN_PATH) return <Redirect to={pathAfterSignIn()} replace />;
  if (location === SET_PASSWORD_PATH) return <LinkWhileSignedIn user={user} />;
  if (!screen) return <NotFoundPage />;
  // The one access gate: a screen never re-checks its own capability. The web only hides;
  // the server refuses anyway.
  const Content = screen.Denied && !mayOpen(user, screen) ? screen.Denied : screen.Screen;
  // One layout instance across screens, so sidebar state survives navigation.
  return (
    <AppLayout user={user} navigation={navigationFor(user)}>
      <Suspense fallback={<ScreenLoading />}>
        <Content user={user} />
      </Suspense>
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
