import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { PageHeader } from '../../components/layout/page-header.tsx';
import { toast } from '../../lib/toast.ts';

/** Spec section 9: how long the 'Access Denied' toast shows before leaving for '/'. */
const ACCESS_DENIED_REDIRECT_MS = 1000;

/** /admin for a user without the admin panel (spec section 2): a toast, then '/' after 1 second. */
export function AdminAccessDenied() {
  const [, navigate] = useLocation();

  useEffect(() => {
    toast({ title: 'Access Denied', description: "You don't have permission to access this page", variant: 'destructive' });
    const timer = setTimeout(() => navigate('/', { replace: true }), ACCESS_DENIED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate]);

  return <PageHeader title="Access Denied" subtitle="You don't have permission to access this page. Returning to the dashboard..." />;
}
