import { ArrowLeft, Stethoscope } from 'lucide-react';
import { useRef } from 'react';
import { Link } from 'wouter';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx';
import { PRODUCT_NAME } from '../../lib/brand.ts';
import { DemoAccounts, useHasDemoAccounts } from './demo-accounts.tsx';
import { cn } from '../../lib/utils.ts';
import { SignInForm, useSignInForm } from './sign-in-form.tsx';

/** /login: where GET /api/login leads when no single sign-on provider is configured. */
export function SignInPage() {
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
    <div className="flex min-h-full flex-col bg-gradient-to-b from-blue-50 to-slate-50">
      <header className="mx-auto flex w-full max-w-5xl items-center justify-between px-4 py-4 sm:px-6">
        <Link href="/" className="flex items-center gap-2 rounded-md font-bold text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
          <span className="flex size-8 items-center justify-center rounded-md bg-primary text-white">
            <Stethoscope className="size-4" aria-hidden="true" />
          </span>
          {PRODUCT_NAME}
        </Link>
        <Link href="/" className="flex items-center gap-1 rounded-md text-sm text-slate-700 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back to home
        </Link>
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pb-12 pt-4 sm:items-center sm:px-6">
        <Card className={cn('grid w-full overflow-hidden', hasDemo ? 'max-w-4xl md:grid-cols-2' : 'max-w-md')}>
          <div>
            <CardHeader>
              <h1 className="text-2xl font-bold tracking-tight text-slate-900">Sign in</h1>
              <CardDescription>Use your clinic account to open your workspace.</CardDescription>
            </CardHeader>
            <CardContent>
              <SignInForm form={form} submitRef={submitRef} />
            </CardContent>
          </div>
          {hasDemo && (
            <div className="border-t bg-slate-50 p-6 md:border-l md:border-t-0">
              <DemoAccounts onPick={fillDemoAccount} />
            </div>
          )}
        </Card>
      </main>
    </div>
  );
}
