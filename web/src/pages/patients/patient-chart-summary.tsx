import { ClipboardList } from 'lucide-react';
import { Link } from 'wouter';
import type { TPatient } from '#domain/patients';
import { PatientAllergyBanner } from '../../components/chart/patient-allergy-banner.tsx';
import { Button } from '../../components/ui/button.tsx';

/**
 * The Medical Information section's lists (issue 51): her allergies, problems and medications are
 * her chart's coded lists, no longer typed here. An existing patient shows her allergy banner and
 * a link to her chart; a new one says where they go once she is added.
 */
export function PatientChartSummary({ patient, showChartLink }: { patient: TPatient | null; showChartLink: boolean }) {
  if (!patient) {
    return (
      <p className="rounded-md border border-dashed p-3 text-sm text-slate-700" data-testid="patient-chart-summary">
        Allergies, problems, medications and vital signs are recorded on the patient&apos;s chart once she is added.
      </p>
    );
  }
  return (
    <div className="space-y-2" data-testid="patient-chart-summary">
      <PatientAllergyBanner patientId={patient.id} />
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-700">
        <p>Allergies, problems, medications and vital signs are kept on her chart.</p>
        {showChartLink && (
          <Button asChild size="sm" variant="outline">
            <Link href={`/chart?patientId=${encodeURIComponent(patient.id)}`}>
              <ClipboardList aria-hidden="true" />
              Open chart
            </Link>
          </Button>
        )}
      </div>
    </div>
  );
}
