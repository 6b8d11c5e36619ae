import { useRef, useState } from 'react';
import type { TSecondFactorNeeded } from '#domain/second-factor';
import { SignedOutFrame } from '../../components/layout/signed-out-frame.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx';
import { DemoAccounts, useHasDemoAccounts } from './demo-accounts.tsx';
import { cn } from '../../lib/utils.ts';
import { SecondFactorStep } from './second-factor-step.tsx';
import { SignInForm, useSignInForm } from './sign-in-form.tsx';

/** /login: where GET /api/login leads when no single sign-on provider is configured. */
export function SignInPage() {
  // The identity provider's sign-in comes back here for the second factor (?step=second-factor).
  const [step, setStep] = useState<'password' | 'second-factor'>(() =>
    new URLSearchParams(window.location.search).get('step') === 'second-factor' ? 'second-factor' : 'password',
  );
  // The ways the password step said the user can give her second factor (unknown after an identity provider).
  const [methods, setMethods] = useState<TSecondFactorNeeded['secondFactor']['methods'] | null>(null);
  const form = useSignInForm();
  const submitRef = useRef<HTMLButtonElement>(null);
  const hasDemo = useHasDemoAccounts();

  const fillDemoAccount = (email: string, password: string) => {
    form.clearErrors();
    form.setValue('email', email, { shouldDirty: true });
    form.setValue('password', password, { shouldDirty: true });
    // Enter (or one more click) now signs in.
    submitRef.current?.focus();
  };

  return (
    <SignedOutFrame>
      <Card className={cn('grid w-full overflow-hidden', hasDemo && step === 'password' ? 'max-w-4xl md:grid-cols-2' : 'max-w-md')}>
        <div>
          <CardHeader>
            <h1 className="text-2xl font-bold tracking-tight text-slate-900">Sign in</h1>
            <CardDescription>Use your clinic account to open your workspace.</CardDescription>
          </CardHeader>
          <CardContent>
            {step === 'password' ? (
              <SignInForm
                form={form}
                submitRef={submitRef}
                onSecondFactor={(offered) => {
                  setMethods(offered);
                  setStep('second-factor');
                }}
              />
            ) : (
              <SecondFactorStep
                methods={methods}
                onStartOver={() => {
                  form.setValue('password', '');
                  setStep('password');
                }}
              />
            )}
          </CardContent>
        </div>
        {hasDemo && step === 'password' && (
          <div className="border-t bg-slate-50 p-6 md:border-l md:border-t-0">
            <DemoAccounts onPick={fillDemoAccount} />
          </div>
        )}
      </Card>
    </SignedOutFrame>
  );
}
