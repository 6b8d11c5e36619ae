import { useEffect } from 'react';
import { handleLoggedOut } from '../lib/logged-out.ts';
import { FullScreenLoading } from './full-screen-loading.tsx';

/** A signed-in screen without a session: toast, then /api/login (spec section 8). */
export function LeaveForSignIn() {
  useEffect(() => handleLoggedOut(), []);
  return <FullScreenLoading />;
}
