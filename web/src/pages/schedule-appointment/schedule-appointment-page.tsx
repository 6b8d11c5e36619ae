import { ArrowLeft } from 'lucide-react';
import { Link, useSearch } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { PageHeader } from '../../components/layout/page-header.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { ScheduleForm } from './schedule-form.tsx';

/**
 * /schedule-appointment (spec sections 2 and 5), for scheduler and admin (others get the
 * registry's 'Access Denied'). ?patientId= starts with that patient chosen.
 */
export function ScheduleAppointmentPage({ user }: { user: TCurrentUser }) {
  const clinic = useClinicTimeZone();
  const patientId = new URLSearchParams(useSearch()).get('patientId');
  return (
    <div className="mx-auto max-w-3xl">
      <Button asChild variant="ghost" size="sm" className="mb-2 -ml-2">
        <Link href="/appointments">
          <ArrowLeft aria-hidden="true" />
          Back
        </Link>
      </Button>
      <PageHeader
        title="Schedule New Appointment"
        subtitle={clinic.pending ? 'Book a visit and assign staff.' : `Book a visit and assign staff. Times are the clinic's (${clinic.timeZone}).`}
      />
      <Card>
        <CardContent className="p-4 sm:p-6">
          {clinic.pending ? (
            <div role="status" className="space-y-4">
              <span className="sr-only">Loading the form</span>
              {[0, 1, 2, 3].map((i) => (
                <Skeleton key={i} className="h-16 w-full" />
              ))}
            </div>
          ) : (
            <ScheduleForm user={user} timeZone={clinic.timeZone} initialPatientId={patientId} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
