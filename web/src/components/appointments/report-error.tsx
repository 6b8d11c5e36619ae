import { describeApiError, isUnauthorizedError, type TDisplayError } from '../../lib/api-errors.ts';
import { toast } from '../../lib/toast.ts';

/**
 * A failed appointment write (spec section 8): a toast titled 'Error' with the spec's text, and
 * under it the server's reason (who changed it first, which move is refused). A lost session is
 * left to the logged-out handling. Returns the described error for the screen to show in place.
 */
export function reportAppointmentError(error: unknown, text: string): TDisplayError | null {
  if (isUnauthorizedError(error)) return null;
  const described = describeApiError(error);
  toast({
    title: 'Error',
    description: (
      <>
        <span className="block">{text}</span>
        <span className="block opacity-90">{described.message}</span>
      </>
    ),
    variant: 'destructive',
  });
  return described;
}
