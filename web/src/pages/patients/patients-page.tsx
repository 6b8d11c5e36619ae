import { Plus, Search, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { PATIENT_PAGE } from '#domain/patients';
import { can } from '#domain/permissions';
import { PageHeader } from '../../components/layout/page-header.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent } from '../../components/ui/card.tsx';
import { Input } from '../../components/ui/input.tsx';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';
import { PatientFormDialog, type TPatientDialogState } from './patient-form-dialog.tsx';
import { PatientList } from './patient-list.tsx';

/** Typing pauses this long before the server is asked. */
export const PATIENT_SEARCH_DEBOUNCE_MS = 300;

const TITLE = 'Patients';
const SUBTITLE = 'Manage patient records and information';

/** /patients (spec section 2). */
export function PatientsPage({ user }: { user: TCurrentUser }) {
  // The sidebar offers no link to a supplier; one who opens the address gets a clear answer
  // and the API (which would refuse with 403) is not called.
  if (!can(user, 'patients.read')) return <NoPatientAccess />;
  return <PatientsScreen user={user} />;
}

function PatientsScreen({ user }: { user: TCurrentUser }) {
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), PATIENT_SEARCH_DEBOUNCE_MS);
  const [dialog, setDialog] = useState<TPatientDialogState>(null);
  const canWrite = can(user, 'patients.write');

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={TITLE}
        subtitle={SUBTITLE}
        actions={
          canWrite && (
            <Button onClick={() => setDialog({ mode: 'create' })}>
              <Plus aria-hidden="true" />
              Add New Patient
            </Button>
          )
        }
      />

      <div role="search" className="relative mb-6 max-w-xl">
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-500" aria-hidden="true" />
        <Input
          type="search"
          aria-label="Search patients"
          placeholder="Search patients by name or email..."
          maxLength={PATIENT_PAGE.maxSearch}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          className="pl-9"
        />
      </div>

      <PatientList search={search} onEdit={canWrite ? (patient) => setDialog({ mode: 'edit', patient }) : undefined} />

      {canWrite && (
        <PatientFormDialog state={dialog} canDeactivate={can(user, 'patients.deactivate')} onClose={() => setDialog(null)} />
      )}
    </div>
  );
}

function NoPatientAccess() {
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title={TITLE} subtitle={SUBTITLE} />
      <Card data-testid="patients-no-access">
        <CardContent className="flex flex-col items-center gap-3 p-10 text-center">
          <ShieldOff className="size-8 text-slate-500" aria-hidden="true" />
          <p className="font-semibold text-slate-900">You have no access to patient records</p>
          <p className="max-w-md text-sm text-slate-600">
            Your role does not include patient records. Ask your clinic administrator if you need them for your work.
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
