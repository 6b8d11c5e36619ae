import { X } from 'lucide-react';
import { Link } from 'wouter';
import { patientLabel } from '#domain/record-scope';
import type { TPatient } from '#domain/patients';
import { fullName } from '../lib/patient-format.ts';
import { PatientAllergyBanner } from './chart/patient-allergy-banner.tsx';
import { Button } from './ui/button.tsx';

/** The name a screen filtered to her shows: none that the name would then replace while her record loads. */
export const filteredPatientName = (patientId: string, patient: { data?: TPatient | undefined; isPending: boolean }) =>
  patient.data ? fullName(patient.data) : patient.isPending ? 'this patient' : patientLabel(patientId);

/**
 * The bar of a screen filtered to one patient (her appointments, notes, lab orders): whose they
 * are, the way back to everyone's, and her allergy banner under it (issue 51).
 */
export function PatientFilterBar({
  patientId,
  heading,
  headingId,
  clearHref,
  clearLabel,
}: {
  patientId: string;
  heading: string;
  headingId?: string;
  clearHref: string;
  clearLabel: string;
}) {
  return (
    <div className="mb-4 space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border bg-blue-50 px-4 py-3">
        <h2 id={headingId} className="font-semibold text-blue-950" data-testid="patient-filter">
          {heading}
        </h2>
        <Button asChild variant="outline" size="sm">
          <Link href={clearHref}>
            <X aria-hidden="true" />
            {clearLabel}
          </Link>
        </Button>
      </div>
      <PatientAllergyBanner patientId={patientId} />
    </div>
  );
}
