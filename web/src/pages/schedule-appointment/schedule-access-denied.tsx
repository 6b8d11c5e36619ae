import { ArrowLeft, ShieldOff } from 'lucide-react';
import { Link } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';

/**
 * /schedule-appointment for anyone but schedulers and admins (spec section 2), with a way back
 * to a screen she may open: the appointments, or (a supplier, who has none) the dashboard.
 */
export function ScheduleAccessDenied({ user }: { user: TCurrentUser }) {
  const back = can(user, 'appointments.read') ? { href: '/appointments', label: 'Back to Appointments' } : { href: '/', label: 'Back to Dashboard' };
  return (
    <div className="mx-auto max-w-2xl">
      <Card data-testid="schedule-access-denied">
        <CardContent className="flex flex-col items-center gap-4 p-8 text-center sm:p-10">
          <ShieldOff className="size-10 text-red-700" aria-hidden="true" />
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Access Denied</h1>
          <p className="max-w-md text-sm text-slate-600">Only schedulers and admins can schedule appointments.</p>
          <Button asChild variant="outline">
            <Link href={back.href}>
              <ArrowLeft aria-hidden="true" />
              {back.label}
            </Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
