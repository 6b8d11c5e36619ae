import { usePatient } from '../../api/patients/patient.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { apiErrorCode } from '../../lib/api-errors.ts';
import { Skeleton } from '../ui/skeleton.tsx';
import { AllergyBanner } from './allergy-banner.tsx';

/**
 * The allergy banner of one patient, for a screen or form that shows her (the note form, the
 * scheduling form, a chat room, a lab order). Read with her record, which such a screen has
 * mostly asked for already: no request of its own. A role without the banner (chart.banner)
 * gets a record without the summary, and nothing shows. A record that could not be read says so:
 * a missing banner must never read as 'no allergies'.
 */
export function PatientAllergyBanner({ patientId, className }: { patientId: string; className?: string }) {
  const patient = usePatient(patientId);
  const { timeZone } = useClinicTimeZone();
  if (patient.isPending) {
    return (
      <div role="status" aria-label="Loading allergies" className={className}>
        <Skeleton className="h-9 w-full" />
      </div>
    );
  }
  if (patient.isError) {
    // Outside her reach (a restricted record: the screen says so) or her records (a supplier in a
    // chat room) there is no banner to show, rather than an alarm.
    const code = apiErrorCode(patient.error);
    if (code === 'record.restricted' || code === 'auth.forbidden') return null;
    return (
      <p role="alert" className={className ? `${className} text-sm text-red-800` : 'text-sm text-red-800'} data-testid="allergy-banner-error">
        Allergies could not be loaded: open the patient's chart before going on.
      </p>
    );
  }
  return patient.data.allergySummary ? <AllergyBanner summary={patient.data.allergySummary} timeZone={timeZone} className={className} /> : null;
}
