import { useEffect, useState } from 'react';
import { ZLinkToken } from '#domain/users';

/**
 * The token from the address's fragment (#token=...), read once; then dropped from the address
 * bar, so it stays out of the history and off a shared screen.
 */
export function useFragmentToken(): string | null {
  const [token] = useState(() => {
    const value = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token');
    return value && ZLinkToken.safeParse(value).success ? value : null;
  });
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  }, []);
  return token;
}
