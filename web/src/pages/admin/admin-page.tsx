import { useEffect } from 'react';
import { useLocation } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { PageHeader } from '../../components/layout/page-header.tsx';
import { ScreenPlaceholder } from '../../components/layout/screen-placeholder.tsx';
import { toast } from '../../lib/toast.ts';

/** Spec section 9: how long the 'Access Denied' toast shows before leaving for '/'. */
const ACCESS_DENIED_REDIRECT_MS = 1000;

export function AdminPage({ user }: { user: TCurrentUser }) {
  const allowed = can(user, 'admin.panel');
  const [, navigate] = useLocation();

  // Spec section 2: anyone else gets 'Access Denied' and is sent to '/' after 1 second.
  useEffect(() => {
    if (allowed) return;
    toast({ title: 'Access Denied', description: "You don't have permission to access this page", variant: 'destructive' });
    const timer = setTimeout(() => navigate('/', { replace: true }), ACCESS_DENIED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [allowed, navigate]);

  if (!allowed) {
    return <PageHeader title="Access Denied" subtitle="You don't have permission to access this page. Returning to the dashboard..." />;
  }
  return <ScreenPlaceholder title="Admin Panel" subtitle="User management, analytics, notifications and settings" />;
}
