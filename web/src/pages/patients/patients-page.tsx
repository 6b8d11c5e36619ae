import { FileText, Plus, Search } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { PATIENT_PAGE, type TPatient } from '#domain/patients';
import { can } from '#domain/permissions';
import { RestrictionDialog } from '../../components/restricted/restriction-dialog.tsx';
import { ExportRecordDialog } from './export-record-dialog.tsx';
import { buttonClass } from '../../components/ui/button-variants.ts';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';
import { fullName } from '../../lib/patient-format.ts';
import { PatientFormDialog, type TPatientDialogState } from './patient-form-dialog.tsx';
import { PatientList } from './patient-list.tsx';
import { PatientsHeader } from './patients-header.tsx';

/** Typing pauses this long before the server is asked. */
export const PATIENT_SEARCH_DEBOUNCE_MS = 300;

/** /patients (spec section 2). Who may read patients is decided once, by the screen registry's gate. */
export function PatientsPage({ user }: { user: TCurrentUser }) {
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), PATIENT_SEARCH_DEBOUNCE_MS);
  const [dialog, setDialog] = useState<TPatientDialogState>(null);
  const canWrite = can(user, 'patients.write');
  const [restricting, setRestricting] = useState<TPatient | null>(null);
  const [exporting, setExporting] = useState<TPatient | null>(null);

  return (
    <div className="mx-auto max-w-7xl">
      <PatientsHeader
        actions={
          <div className="flex flex-wrap gap-2">
            {/* The worklist of the old free-text notes, to code them into the chart (issue 51). */}
            {can(user, 'chart.read') && (
              <Link href="/chart" className={buttonClass({ variant: 'outline' })}>
                <FileText aria-hidden="true" />
                Previous-record notes
              </Link>
            )}
            {canWrite && (
              <Button onClick={() => setDialog({ mode: 'create' })}>
                <Plus aria-hidden="true" />
                Add New Patient
              </Button>
            )}
          </div>
        }
      />

      <div role="search" className="relative mb-6 max-w-xl">
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
        <Input
          type="search"
          name="search"
          aria-label="Search patients"
          placeholder="Search patients by name or email..."
          maxLength={PATIENT_PAGE.maxSearch}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          className="pl-9"
        />
      </div>

      <PatientList
        search={search}
        onEdit={canWrite ? (patient) => setDialog({ mode: 'edit', patient }) : undefined}
        showAccessLog={can(user, 'audit.read')}
        showChart={can(user, 'chart.read')}
        showLabOrders={can(user, 'labs.read')}
        onRestrict={can(user, 'patients.restrict') ? setRestricting : undefined}
        onExport={setExporting}
      />

      {exporting && <ExportRecordDialog patientId={exporting.id} name={fullName(exporting)} onClose={() => setExporting(null)} />}

      {restricting && <RestrictionDialog patientId={restricting.id} name={fullName(restricting)} user={user} onClose={() => setRestricting(null)} />}

      {canWrite && (
        <PatientFormDialog
          state={dialog}
          canDeactivate={can(user, 'patients.deactivate')}
          showChartLink={can(user, 'chart.read')}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}
