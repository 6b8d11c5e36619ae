import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect, useRef } from 'react';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { useCurrentUser } from './api/auth/current-user.ts';
import { ErrorState } from './components/error-state.tsx';
import { FullScreenLoading } from './components/full-screen-loading.tsx';
import { Spinner } from './components/ui/spinner.tsx';
import { AppLayout } from './components/layout/app-layout.tsx';
import { Toaster } from './components/ui/toaster.tsx';
import { PRODUCT_NAME } from './lib/brand.ts';
import { handleLoggedOut } from './lib/logged-out.ts';
import { queryClient } from './lib/query-client.ts';
import { LandingPage } from './pages/landing/landing-page.tsx';
import { NotFoundPage } from './pages/not-found/not-found-page.tsx';
import { SignInPage } from './pages/sign-in/sign-in-page.tsx';
import { findScreen, mayOpen, OPENABLE_SCREENS, SIGN_IN_PATH } from './screens.ts';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <AppRoutes />
      <Toaster />
    </QueryClientProvider>
  );
}

function AppRoutes() {
  const { data: user, isLoading, isError, error, refetch } = useCurrentUser();
  // A user who disappears while the page is open has lost their session (expired, revoked).
  const wasSignedIn = useRef(false);

  // A signed-in user stays on screen even if a background re-check fails for another reason.
  if (user) {
    wasSignedIn.current = true;
    return <SignedInApp user={user} />;
  }
  if (isLoading) return <FullScreenLoading />;
  if (isError) {
    return (
      <main className="flex min-h-full items-center justify-center p-4">
        <ErrorState title="Could not check your sign-in" error={error} onRetry={() => void refetch()} />
      </main>
    );
  }
  if (wasSignedIn.current) return <LeaveForSignIn />;
  return <VisitorApp />;
}

function VisitorApp() {
  useDocumentTitle(null);
  return (
    <Switch>
      <Route path="/" component={LandingPage} />
      <Route path={SIGN_IN_PATH} component={SignInPage} />
      {OPENABLE_SCREENS.map((screen) => (
        <Route key={screen.path} path={screen.path} component={LeaveForSignIn} />
      ))}
      <Route component={NotFoundPage} />
    </Switch>
  );
}

function SignedInApp({ user }: { user: TCurrentUser }) {
  const [location] = useLocation();
  const screen = findScreen(location);
  useDocumentTitle(screen?.title ?? null);

  if (location === SIGN_IN_PATH) return <Redirect to="/" replace />;
  if (!screen) return <NotFoundPage />;
  // The one access gate: a screen never re-checks its own capability. The web only hides;
  // the server refuses anyway.
  const Content = screen.Denied && !mayOpen(user, screen) ? screen.Denied : screen.Screen;
  // One layout instance across screens, so sidebar state survives navigation.
  return (
    <AppLayout user={user}>
      <Suspense fallback={<ScreenLoading />}>
        <Content user={user} />
      </Suspense>
    </AppLayout>
  );
}

/** A signed-in screen without a session: toast, then /api/login (spec section 8). */
function LeaveForSignIn() {
  useEffect(() => handleLoggedOut(), []);
  return <FullScreenLoading />;
}

function useDocumentTitle(screenTitle: string | null): void {
  useEffect(() => {
    document.title = screenTitle ? `${screenTitle} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [screenTitle]);
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
