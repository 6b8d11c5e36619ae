import { lazy, Suspense, useDeferredValue, useEffect } from 'react';
import { Route, Switch } from 'wouter';
import { SET_PASSWORD_PATH } from '#domain/sign-in-paths';
import { FullScreenLoading } from './components/full-screen-loading.tsx';
import { DemoFrame } from './components/layout/demo-banner.tsx';
import { SignInCheckFailed } from './components/sign-in-check-failed.tsx';
import { PRODUCT_NAME, SIGN_IN_PATH } from './lib/brand.ts';
import { usePreloaded } from './lib/preloadable.ts';
import { checkSession, hasSignedInHint, onSignIn, retrySessionCheck, useSession, type TSessionUser } from './lib/session.ts';
import { LandingPage } from './pages/landing/landing-page.tsx';
import { signedInApp, startSignedInPage } from './signed-in-start.ts';

// The first page a visitor sees carries only the landing page: the signed-in app, the sign-in
// page and every other path load their code when they are reached (docs/decisions/front-end-delivery.md).
// A returning user's page starts everything its first screen needs now, the sign-in check
// included, rather than one after the other.
if (hasSignedInHint()) startSignedInPage(window.location.pathname);
// Signed in on this page: the same, for the page the sign-in page leads to (its ?next=, which
// the sign-in page checks before following; here it only chooses what to load).
onSignIn((user) => startSignedInPage(new URLSearchParams(window.location.search).get('next') ?? '/', user));
const SignInScreen = lazy(async () => ({ default: (await import('./visitor-screens.tsx')).SignInScreen }));
const SetPasswordScreen = lazy(async () => ({ default: (await import('./visitor-screens.tsx')).SetPasswordScreen }));
const VisitorElsewhere = lazy(async () => ({ default: (await import('./visitor-screens.tsx')).VisitorElsewhere }));

export function App() {
  return (
    <DemoFrame>
      <Screens />
    </DemoFrame>
  );
}

function Screens() {
  const session = useSession();
  useEffect(() => {
    void checkSession();
  }, []);

  switch (session.status) {
    case 'checking':
      return <FullScreenLoading />;
    case 'failed':
      return <SignInCheckFailed error={session.error} onRetry={retrySessionCheck} />;
    case 'visitor':
      return <VisitorApp />;
    case 'signedIn':
    case 'ended':
      return <SignedInPage user={session.status === 'signedIn' ? session.user : null} />;
  }
}

/**
 * The spinner stays until the signed-in app's code is here (usually already: it loaded during
 * the check). The app is then drawn as a deferred update, which React renders in slices rather
 * than in one long task (Lighthouse's blocking time).
 */
function SignedInPage({ user }: { user: TSessionUser | null }) {
  const app = useDeferredValue(usePreloaded(signedInApp));
  return app ? <app.SignedInApp user={user} /> : <FullScreenLoading />;
}

function VisitorApp() {
  useEffect(() => {
    document.title = PRODUCT_NAME;
  }, []);
  return (
    <Suspense fallback={<FullScreenLoading />}>
      <Switch>
        <Route path="/" component={LandingPage} />
        <Route path={SIGN_IN_PATH} component={SignInScreen} />
        <Route path={SET_PASSWORD_PATH} component={SetPasswordScreen} />
        <Route component={VisitorElsewhere} />
      </Switch>
    </Suspense>
  );
}
