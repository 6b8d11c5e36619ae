import { useSearch } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { useChart } from '../../api/chart/chart.ts';
import { usePatient } from '../../api/patients/patient.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { AllergyBanner } from '../../components/chart/allergy-banner.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { EmergencyAccessBanner, RestrictedRecordPanel } from '../../components/restricted/restricted-record-panel.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { apiErrorCode } from '../../lib/api-errors.ts';
import { formatDateOfBirth } from '../../lib/patient-format.ts';
import { useGrantFor } from '../../lib/emergency-grants.ts';
import { AllergySection } from './allergy-section.tsx';
import { ChartHeader } from './chart-header.tsx';
import { MedicationSection } from './medication-section.tsx';
import { ProblemSection } from './problem-section.tsx';
import { VitalsSection } from './vitals-section.tsx';
import { PreviousRecord } from './previous-record.tsx';
import { PreviousRecordWorklist } from './previous-record-worklist.tsx';

/**
 * /chart?patientId= (issue 51): one patient's clinical chart, read in one request: the allergy
 * banner, the allergy list with her NKA / NKDA statement, her vital signs, problems and medications,
 * and the notes from her previous record.
 * Reached from the patient card, her appointments and the note form. Without a patient: the
 * clinic's notes from previous records, searched (previous-record-worklist.tsx).
 */
export function ChartPage({ user }: { user: TCurrentUser }) {
  const patientId = new URLSearchParams(useSearch()).get('patientId');
  if (!patientId) {
    return (
      <>
        <ChartHeader />
        <PreviousRecordWorklist />
      </>
    );
  }
  return <PatientChart patientId={patientId} user={user} />;
}

function PatientChart({ patientId, user }: { patientId: string; user: TCurrentUser }) {
  const patient = usePatient(patientId);
  const chart = useChart(patientId);
  const { timeZone } = useClinicTimeZone();
  const grant = useGrantFor(patientId);
  if (apiErrorCode(chart.error) === 'record.restricted' || apiErrorCode(patient.error) === 'record.restricted') {
    return (
      <>
        <ChartHeader />
        <RestrictedRecordPanel patientId={patientId} user={user} />
      </>
    );
  }
  const name = patient.data ? `${patient.data.firstName} ${patient.data.lastName}` : undefined;
  const born = patient.data?.dateOfBirth ? `born ${formatDateOfBirth(patient.data.dateOfBirth)}` : null;
  return (
    <>
      <ChartHeader subtitle={name ? [name, born].filter(Boolean).join(', ') : undefined} />
      {grant && timeZone && <EmergencyAccessBanner grant={grant} timeZone={timeZone} />}
      {chart.isError ? (
        <ErrorState title="Could not load the chart" error={chart.error} onRetry={() => void chart.refetch()} />
      ) : !chart.data || !timeZone ? (
        <div className="space-y-4" role="status" aria-label="Loading the chart" data-testid="chart-loading">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : (
        <div className="space-y-6" data-testid="chart">
          <AllergyBanner summary={chart.data.allergySummary} timeZone={timeZone} />
          <AllergySection chart={chart.data} user={user} timeZone={timeZone} />
          <div className="grid gap-6 xl:grid-cols-2">
            <ProblemSection chart={chart.data} user={user} timeZone={timeZone} />
            <MedicationSection chart={chart.data} user={user} timeZone={timeZone} />
          </div>
          <VitalsSection chart={chart.data} user={user} timeZone={timeZone} />
          <PreviousRecord chart={chart.data} user={user} />
        </div>
      )}
    </>
  );
}
