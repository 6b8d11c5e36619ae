import type { TCurrentUser } from '#domain/auth';

type TNamed = Pick<TCurrentUser, 'email' | 'firstName' | 'lastName'>;

/** First and last name, or the email when the account has no name yet. */
export function fullName(user: TNamed): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
  return name || user.email;
}

/** One letter for the avatar circle. */
export function userInitial(user: TNamed): string {
  return (user.firstName?.trim() || user.lastName?.trim() || user.email).charAt(0).toUpperCase();
}

/** Spec section 9: the bell shows the exact count up to 99, then '99+'. */
export function formatBadgeCount(count: number): string {
  return count > 99 ? '99+' : String(count);
}
