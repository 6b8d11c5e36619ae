import { Redirect } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { adminHref } from '../../lib/admin-tabs.ts';

/**
 * /settings (the sidebar's Settings): the clinic's settings live in the Admin Panel's Settings
 * tab, so an old link or a bookmark of /settings lands there, and Back skips this address.
 */
export function SettingsRedirect(_props: { user: TCurrentUser }) {
  return <Redirect to={adminHref('settings')} replace />;
}
