import { CircleExclamationPoint, Clock, UserX } from 'lucide-react';
import type { TDisplayError } from '../../lib/api-errors.ts';

/**
 * Each refusal gets a heading that says what happened; the detail is the server's own message
 * (it carries the remaining lock-out time, or what to do about a deactivated account).
 */
function headingFor(status: number | null): { heading: string; Icon: typeof CircleExclamationPoint } {
  if (status === 401) return { heading: 'Sign-in failed', Icon: CircleExclamationPoint };
  if (status === 429) return { heading: 'Sign-in temporarily locked', Icon: Clock };
  if (status === 403) return { heading: 'Account deactivated', Icon: UserX };
  if (status === 400) return { heading: 'Check the form', Icon: CircleExclamationPoint };
  return { heading: 'Could not sign in', Icon: CircleExclamationPoint };
}

export function SignInError({ error }: { error: TDisplayError }) {
  const { heading, Icon } = headingFor(error.status);
  return (
    <div
      role="alert"
      data-testid="sign-in-error"
      data-status={error.status ?? 'network'}
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
