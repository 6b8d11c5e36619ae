import { ShieldOff } from 'lucide-react';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { AppointmentsHeader } from './appointments-header.tsx';

/** /appointments for a role without appointments (a supplier): said plainly, and no API call is made. */
export function NoAppointmentAccess() {
  return (
    <div className="mx-auto max-w-7xl">
      <AppointmentsHeader />
      <Card data-testid="appointments-no-access">
        <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
          <ShieldOff className="size-8 text-slate-500" aria-hidden="true" />
          <p className="font-semibold text-slate-900">You have no access to appointments</p>
          <p className="max-w-md text-sm text-slate-600">
            Your role does not include the clinic's schedule. Ask your clinic administrator if you need it for your work.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
