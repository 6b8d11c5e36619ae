import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { LeaveForSignIn } from './components/leave-for-sign-in.tsx';
import { Toaster } from './components/ui/toaster.tsx';
import { queryClient } from './lib/query-client.ts';
import { whenIdle } from './lib/when-idle.ts';
import { NotFoundPage } from './pages/not-found/not-found-page.tsx';
import { SetPasswordPage } from './pages/set-password/set-password-page.tsx';
import { SignInPage } from './pages/sign-in/sign-in-page.tsx';
import { findScreen } from './screens.ts';
import { signedInApp } from './signed-in-start.ts';

/** What a visitor reaches beyond the landing page; loaded only when they go there. */

export function SignInScreen() {
  // Whoever is on the sign-in page is about to need the signed-in app and its dashboard: their
  // code loads while the form is filled in, so signing in waits only for the data.
  useEffect(() => whenIdle(() => signedInApp.load().catch(() => undefined)), []);
  return (
    <QueryClientProvider client={queryClient}>
      <SignInPage />
      <Toaster />
    </QueryClientProvider>
  );
}

/** /set-password: where an invite or password-reset link leads (the token in the fragment). */
export function SetPasswordScreen() {
  return (
    <QueryClientProvider client={queryClient}>
      <SetPasswordPage />
      <Toaster />
    </QueryClientProvider>
  );
}

/** A signed-in screen's path is sent to sign in (spec section 2); anything else is not found. */
export function VisitorElsewhere() {
  const [location] = useLocation();
  if (!findScreen(location)) return <NotFoundPage />;
  return (
    <>
      <LeaveForSignIn />
      <Toaster />
    </>
  );
}
