import { CalendarPlus, X } from 'lucide-react';
import { Link } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { patientLabel } from '#domain/record-scope';
import { usePatientAppointments } from '../../api/appointments/appointments.ts';
import { usePatient } from '../../api/patients/patient.ts';
import { Button } from '../../components/ui/button.tsx';
import { EmergencyAccessBanner, RestrictedRecordPanel } from '../../components/restricted/restricted-record-panel.tsx';
import { apiErrorCode } from '../../lib/api-errors.ts';
import { useGrantFor } from '../../lib/emergency-grants.ts';
import { AppointmentList } from './appointment-list.tsx';
import { AppointmentRowsSkeleton } from './appointment-row.tsx';
import { AppointmentsHeader } from './appointments-header.tsx';

/** /appointments?patientId= (the patients screen's View): that patient's appointments, oldest first, and a way back to all. */
export function PatientAppointments({ patientId, user, timeZone }: { patientId: string; user: TCurrentUser; timeZone: string | null }) {
  const patient = usePatient(patientId);
  const query = usePatientAppointments(patientId);
  // A restricted record outside her reach (issue 33): the panel says so, and offers emergency access.
  const grant = useGrantFor(patientId);
  if (apiErrorCode(patient.error) === 'record.restricted') {
    return (
      <>
        <AppointmentsHeader />
        <RestrictedRecordPanel patientId={patientId} user={user} />
      </>
    );
  }
  // Until the record is read, no label that the name would then replace.
  const name = patient.data ? `${patient.data.firstName} ${patient.data.lastName}` : patient.isPending ? 'this patient' : patientLabel(patientId);
  const total = query.data?.pages[0]?.total;
  // Spec section 6: a nurse or scribe is shown only her own visits of an unrestricted patient (the
  // name-hiding rule); a restricted patient's care team and grant holders see all (issue 50).
  const onlyAssigned = !can(user, 'appointments.seeAllPatientNames') && patient.data !== undefined && !patient.data.restricted;
  const counted = (n: number) => `${n} ${n === 1 ? 'appointment' : 'appointments'} of this patient${onlyAssigned ? ' assigned to you' : ''}, in time order`;
  return (
    <>
      <AppointmentsHeader
        subtitle={total !== undefined && total !== null ? counted(total) : undefined}
        actions={
          can(user, 'appointments.schedule') &&
          patient.data && (
            <Button asChild>
              <Link href={`/schedule-appointment?patientId=${encodeURIComponent(patientId)}`}>
                <CalendarPlus aria-hidden="true" />
                Schedule for this patient
              </Link>
            </Button>
          )
        }
      />
      {grant && timeZone && <EmergencyAccessBanner grant={grant} timeZone={timeZone} />}
      <section aria-labelledby="patient-appointments-heading">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2 rounded-lg border bg-blue-50 px-4 py-3">
          <h2 id="patient-appointments-heading" className="font-semibold text-blue-950" data-testid="patient-filter">
            Appointments for {name}
          </h2>
          <Button asChild variant="outline" size="sm">
            <Link href="/appointments">
              <X aria-hidden="true" />
              Show all appointments
            </Link>
          </Button>
        </div>
        {onlyAssigned && (
          <p className="mb-3 text-sm text-slate-600" data-testid="assigned-only">
            You see the visits of this patient that you are assigned to: the patient of any other visit is shown only to its assigned staff, schedulers and
            admins.
          </p>
        )}
        {timeZone === null ? (
          <AppointmentRowsSkeleton rows={5} label="Loading appointments" />
        ) : (
          <AppointmentList
            query={query}
            user={user}
            timeZone={timeZone}
            showDate
            loadingLabel={`Loading the appointments of ${name}`}
            errorTitle="Could not load this patient's appointments"
            empty={
              <p className="font-medium text-slate-900">
                {onlyAssigned ? 'None of this patient’s visits are assigned to you' : 'No appointments for this patient'}
              </p>
            }
          />
        )}
      </section>
    </>
  );
}
