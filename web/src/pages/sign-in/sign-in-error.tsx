import { CircleExclamationPoint, Clock, UserX } from 'lucide-react';
import type { TErrorCode } from '#domain/errors';
import type { TDisplayError } from '../../lib/api-errors.ts';

/**
 * Each refusal gets a heading that says what happened; the detail is the server's own message
 * (it carries the remaining lock-out time, or what to do about a deactivated account).
 */
type THeading = { heading: string; Icon: typeof CircleExclamationPoint };

const HEADINGS: Partial<Record<TErrorCode, THeading>> = {
  'signIn.invalidCredentials': { heading: 'Sign-in failed', Icon: CircleExclamationPoint },
  'signIn.throttled': { heading: 'Sign-in temporarily locked', Icon: Clock },
  'signIn.deactivated': { heading: 'Account deactivated', Icon: UserX },
  'request.validation': { heading: 'Check the form', Icon: CircleExclamationPoint },
  'signIn.badCode': { heading: 'Code not accepted', Icon: CircleExclamationPoint },
  'signIn.noChallenge': { heading: 'Sign-in expired', Icon: Clock },
};
const FALLBACK: THeading = { heading: 'Could not sign in', Icon: CircleExclamationPoint };

export function SignInError({ error }: { error: TDisplayError }) {
  const { heading, Icon } = (error.code && HEADINGS[error.code]) || FALLBACK;
  return (
    <div
      role="alert"
      data-testid="sign-in-error"
      data-status={error.status ?? 'network'}
      data-code={error.code ?? undefined}
      className="flex gap-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm"
    >
      <Icon className="mt-0.5 size-4 shrink-0 text-red-700" aria-hidden="true" />
      <div>
        <p className="font-semibold text-red-900">{heading}</p>
        <p className="text-red-800">{error.message}</p>
      </div>
    </div>
  );
}
