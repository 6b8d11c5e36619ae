import { LogOut, ShieldCheck } from 'lucide-react';
import { useEffect } from 'react';
import { ROLE_LABELS } from '#domain/roles';
import { PasskeyEnrolment } from '../../components/second-factor/passkey-enrolment.tsx';
import { TotpEnrolment } from '../../components/second-factor/totp-enrolment.tsx';
import { SignedOutFrame } from '../../components/layout/signed-out-frame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx';
import { LOGOUT_PATH, PRODUCT_NAME } from '../../lib/brand.ts';
import { checkSession, type TSessionUser } from '../../lib/session.ts';
import { formatClinicTime } from '#domain/clinic-time';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';

/**
 * What a user sees while the clinic requires a second factor of her role and her grace has
 * passed: nothing but enrolling (the server refuses everything else) or signing out.
 */
export function EnrolRequiredPage({ user }: { user: TSessionUser }) {
  // Held to enrol, she cannot read the clinic's settings: the browser's zone stands in.
  const { timeZone } = useClinicTimeZone();
  useEffect(() => {
    document.title = `Set up a second factor · ${PRODUCT_NAME}`;
  }, []);
  return (
    <SignedOutFrame>
      <Card className="w-full max-w-xl" data-testid="enrol-required">
        <CardHeader>
          <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight text-slate-900">
            <ShieldCheck className="size-6 text-primary" aria-hidden="true" />
            Set up a second factor
          </h1>
          <CardDescription>
            Your clinic requires a second factor for {ROLE_LABELS[user.role]} accounts
            {user.secondFactor?.deadline ? ` since ${formatClinicTime(user.secondFactor.deadline, timeZone, 'day')}` : ''}. Until you add one, you can only set
            it up or sign out. You will then sign in with your password and your second factor.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <section aria-labelledby="enrol-app" className="space-y-2">
            <h2 id="enrol-app" className="font-semibold text-slate-900">
              An authenticator app on your phone
            </h2>
            <TotpEnrolment needsProof={false} onDone={() => void checkSession()} />
          </section>
          <section aria-labelledby="enrol-passkey" className="space-y-2">
            <h2 id="enrol-passkey" className="font-semibold text-slate-900">
              Or a passkey or security key
            </h2>
            <PasskeyEnrolment needsProof={false} onDone={() => void checkSession()} />
          </section>
          <form method="post" action={LOGOUT_PATH}>
            <Button type="submit" variant="ghost" size="sm" className="text-slate-700">
              <LogOut aria-hidden="true" />
              Sign out
            </Button>
          </form>
        </CardContent>
      </Card>
    </SignedOutFrame>
  );
}
