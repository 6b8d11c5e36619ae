import { describeApiError, type TDisplayError } from '../../lib/api-errors.ts';

/**
 * A failed passkey step in words: the browser's own refusals (the prompt closed or timed out, a
 * key already registered, no WebAuthn here) are not the server's, and say what to do.
 */
export function describeFactorError(error: unknown): TDisplayError {
  const name = error instanceof Error ? ((error as { cause?: { name?: string } }).cause?.name ?? error.name) : '';
  const message =
    name === 'NotAllowedError'
      ? 'The passkey prompt was closed or timed out. Try again, or use a code instead.'
      : name === 'InvalidStateError'
        ? 'This key is already registered to your account.'
        : name === 'NotSupportedError' || name === 'SecurityError'
          ? 'This browser cannot use passkeys here. Use a code instead.'
          : null;
  return message ? { status: null, code: null, message, fieldErrors: [] } : describeApiError(error);
}
