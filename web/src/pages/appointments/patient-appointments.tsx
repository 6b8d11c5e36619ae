import { CalendarPlus, ClipboardList } from 'lucide-react';
import { Link } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import { usePatientAppointments } from '../../api/appointments/appointments.ts';
import { usePatient } from '../../api/patients/patient.ts';
import { filteredPatientName, PatientFilterBar } from '../../components/patient-filter-bar.tsx';
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
  const name = filteredPatientName(patientId, patient);
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
          patient.data && (
            <>
              {can(user, 'chart.read') && (
                <Button asChild variant="outline">
                  <Link href={`/chart?patientId=${encodeURIComponent(patientId)}`}>
                    <ClipboardList aria-hidden="true" />
                    Chart
                  </Link>
                </Button>
              )}
              {can(user, 'appointments.schedule') && (
                <Button asChild>
                  <Link href={`/schedule-appointment?patientId=${encodeURIComponent(patientId)}`}>
                    <CalendarPlus aria-hidden="true" />
                    Schedule for this patient
                  </Link>
                </Button>
              )}
            </>
          )
        }
      />
      {grant && timeZone && <EmergencyAccessBanner grant={grant} timeZone={timeZone} />}
      <section aria-labelledby="patient-appointments-heading">
        <PatientFilterBar
          patientId={patientId}
          heading={`Appointments for ${name}`}
          headingId="patient-appointments-heading"
          clearHref="/appointments"
          clearLabel="Show all appointments"
        />
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
