/**
 * Error messages and statuses both sides rely on. The contract fixes some texts exactly
 * (outside checks compare them), so they are written once here.
 */
export const ERROR_MESSAGES = {
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  notFound: 'Not found',
  invalidCredentials: 'Invalid email or password',
  accountDeactivated: 'This account has been deactivated. Ask your clinic administrator to restore it.',
  validation: 'Validation failed',
  foreignOrigin: 'Cross-site request refused',
  internal: 'Internal server error',
} as const;

/** The body of every error response (contract: `{"message": "..."}`, plus field errors on 400). */
export interface TErrorBody {
  message: string;
  errors?: { path: string; message: string }[];
}

export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
