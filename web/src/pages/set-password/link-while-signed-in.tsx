import { Link } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { SignedOutFrame } from '../../components/layout/signed-out-frame.tsx';
import { buttonClass } from '../../components/ui/button-variants.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card.tsx';
import { LOGOUT_PATH } from '../../lib/brand.ts';
import { useFragmentToken } from './fragment-token.ts';

/**
 * A password link opened in a browser where someone is signed in. The link may be another
 * person's (a shared clinic computer, an admin trying an invite), so no password is set from
 * here: the user logs out and opens the link again. The token leaves the address bar as on the
 * page itself.
 */
export function LinkWhileSignedIn({ user }: { user: TCurrentUser }) {
  useFragmentToken();
  return (
    <SignedOutFrame>
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">You are signed in</h1>
          <CardDescription>
            This browser is signed in as <span className="font-medium text-slate-900">{user.email}</span>. To set a password with this link, log out, then open
            the link again.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          <form method="post" action={LOGOUT_PATH}>
            <Button type="submit">Logout</Button>
          </form>
          <Link href="/" className={buttonClass({ variant: 'outline' })}>
            Back to the dashboard
          </Link>
        </CardContent>
      </Card>
    </SignedOutFrame>
  );
}
