import { lazy, Suspense, useEffect } from 'react';
import { Route, Switch } from 'wouter';
import { FullScreenLoading } from './components/full-screen-loading.tsx';
import { DemoFrame } from './components/layout/demo-banner.tsx';
import { SignInCheckFailed } from './components/sign-in-check-failed.tsx';
import { PRODUCT_NAME, SIGN_IN_PATH } from './lib/brand.ts';
import { checkSession, hasSignedInHint, retrySessionCheck, useSession } from './lib/session.ts';
import { LandingPage } from './pages/landing/landing-page.tsx';

// The first page a visitor sees carries only the landing page: the signed-in app, the sign-in
// page and every other path load their code when they are reached (docs/decisions/front-end-delivery.md).
const loadSignedInApp = () => import('./signed-in-app.tsx');
// A returning user's app starts loading now, alongside the sign-in check, not after it.
if (hasSignedInHint()) void loadSignedInApp();
const SignedInApp = lazy(async () => ({ default: (await loadSignedInApp()).SignedInApp }));
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
      return (
        <Suspense fallback={<FullScreenLoading />}>
          <SignedInApp user={session.status === 'signedIn' ? session.user : null} />
        </Suspense>
      );
  }
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
        {/* SET_PASSWORD_PATH in domain/users.ts, spelled out to keep zod out of the landing page's bundle. */}
        <Route path="/set-password" component={SetPasswordScreen} />
        <Route component={VisitorElsewhere} />
      </Switch>
    </Suspense>
  );
}
