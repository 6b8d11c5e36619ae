import * as Tabs from '@radix-ui/react-tabs';
import { Plus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import { can } from '#domain/permissions';
import type { TPrescription, TPrescriptionView } from '#domain/prescriptions';
import { usePatient } from '../../api/patients/patient.ts';
import { useClinicTimeZone } from '../../api/settings/clinic.ts';
import { filteredPatientName, PatientFilterBar } from '../../components/patient-filter-bar.tsx';
import { useHoldsRights } from '../../api/prescriptions/prescriptions.ts';
import { Button } from '../../components/ui/button.tsx';
import type { TPrescriptionPanel } from './prescription-detail-dialog.tsx';
import { PrescriptionList } from './prescription-list.tsx';
import { PrescriptionRowsSkeleton } from './prescription-row.tsx';
import { VIEW_LABELS } from './prescription-labels.ts';
import { PrescriptionsHeader } from './prescriptions-header.tsx';

// A prescription's detail, the form and the questions load the first time someone opens one.
const PrescriptionDetailDialog = lazy(async () => ({ default: (await import('./prescription-detail-dialog.tsx')).PrescriptionDetailDialog }));
const PrescriptionDialog = lazy(async () => ({ default: (await import('./prescription-dialog.tsx')).PrescriptionDialog }));
const SignPrescriptionDialog = lazy(async () => ({ default: (await import('./sign-prescription-dialog.tsx')).SignPrescriptionDialog }));
const EndPrescriptionDialog = lazy(async () => ({
  default: (await import('../../components/prescriptions/end-prescription-dialog.tsx')).EndPrescriptionDialog,
}));

const TRIGGER =
  'inline-flex flex-1 items-center justify-center whitespace-nowrap rounded px-3 py-1.5 text-sm font-medium text-slate-700 transition-colors hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm sm:flex-none sm:px-4';

/** The tabs a user has: 'To sign' for a prescriber. */
const tabsFor = (prescriber: boolean): TPrescriptionView[] => [...(prescriber ? (['to_sign'] as const) : []), 'prepared', 'active', 'recent'];

/** What each tab says when it is empty. */
const EMPTY: Record<TPrescriptionView, { title: string; text: string }> = {
  to_sign: { title: 'Nothing waits for your signature', text: 'Drafts written for you to sign show here, with their checks.' },
  prepared: { title: 'No drafts of yours wait for a signature', text: 'What you write shows here until it is signed or discarded.' },
  active: { title: 'No prescriptions in force', text: 'Signed and printed prescriptions show here until they are completed or discontinued.' },
  recent: { title: 'No prescriptions yet', text: "Write one with 'New Prescription', or from a patient's chart." },
};

/** The address of the screen with a tab, a patient and an open prescription; the defaults are left out. */
function prescriptionsHref(tab: TPrescriptionView, first: TPrescriptionView, patientId: string | undefined, rxId?: string): string {
  const params = new URLSearchParams();
  if (patientId) params.set('patientId', patientId);
  if (tab !== first) params.set('tab', tab);
  if (rxId) params.set('rx', rxId);
  const search = params.toString();
  return search ? `/prescriptions?${search}` : '/prescriptions';
}

type TScreenPanel = TPrescriptionPanel | { kind: 'new' } | null;

/**
 * /prescriptions (issue 52): To sign (prescribers), Prepared by me, Active and Recent, kept in the
 * address (?tab=); one patient's when reached with ?patientId= (her chart); an open prescription
 * in ?rx= (the to-sign notice links there); the form open with ?write=1 (and ?appointmentId=
 * from a visit). A change reaching the app live (prescription_changed) reads the lists again
 * (live/live-notifications.ts).
 */
export function PrescriptionsPage({ user }: { user: TCurrentUser }) {
  const params = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const prescriber = useHoldsRights(user.id, can(user, 'prescriptions.sign'));
  const tabs = tabsFor(prescriber === true);
  const first = tabs[0]!;
  const patientId = params.get('patientId') || undefined;
  const requested = params.get('tab') as TPrescriptionView | null;
  const tab = requested && tabs.includes(requested) ? requested : first;
  const openId = params.get('rx') || undefined;
  const clinic = useClinicTimeZone();
  // Reached with ?write=1 (a chart's 'Prescribe'): the form opens at once, for the screen's patient.
  const [panel, setPanel] = useState<TScreenPanel>(() => (params.get('write') === '1' && can(user, 'prescriptions.prepare') ? { kind: 'new' } : null));

  const open = (rx: Pick<TPrescription, 'id'>) => navigate(prescriptionsHref(tab, first, patientId, rx.id));
  const closeOpen = () => navigate(prescriptionsHref(tab, first, patientId), { replace: true });
  const closePanel = () => {
    setPanel(null);
    if (params.has('write')) navigate(prescriptionsHref(tab, first, patientId, openId), { replace: true });
  };
  const forPatient = patientId ? ' for this patient' : '';

  return (
    <div className="mx-auto max-w-6xl">
      <PrescriptionsHeader
        actions={
          can(user, 'prescriptions.prepare') && (
            <Button onClick={() => setPanel({ kind: 'new' })}>
              <Plus aria-hidden="true" />
              New Prescription
            </Button>
          )
        }
      />
      {patientId && <PatientFilter patientId={patientId} clearHref={prescriptionsHref(tab, first, undefined)} />}

      <Tabs.Root value={tab} onValueChange={(value) => navigate(prescriptionsHref(value as TPrescriptionView, first, patientId), { replace: true })}>
        <Tabs.List aria-label="Prescription views" className="mb-4 flex w-full overflow-x-auto rounded-md bg-slate-100 p-1 sm:inline-flex sm:w-auto">
          {tabs.map((value) => (
            <Tabs.Trigger key={value} value={value} className={TRIGGER}>
              {VIEW_LABELS[value]}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {prescriber === undefined ? (
          <PrescriptionRowsSkeleton label="Loading prescriptions" />
        ) : (
          tabs.map((value) => (
            <Tabs.Content key={value} value={value} className="focus-visible:outline-none">
              <PrescriptionList
                heading={VIEW_LABELS[value]}
                filter={{ view: value, patientId }}
                timeZone={clinic.timeZone}
                loadingLabel={`Loading ${VIEW_LABELS[value].toLowerCase()}`}
                errorTitle="Could not load the prescriptions"
                onOpen={open}
                empty={
                  <>
                    <p className="font-medium text-slate-900">
                      {EMPTY[value].title}
                      {forPatient}
                    </p>
                    <p>{EMPTY[value].text}</p>
                  </>
                }
              />
            </Tabs.Content>
          ))
        )}
      </Tabs.Root>

      <Suspense fallback={null}>
        {openId && panel === null && (
          <PrescriptionDetailDialog id={openId} user={user} timeZone={clinic.timeZone} onClose={closeOpen} onPanel={setPanel} onOpenOther={open} />
        )}
        {(panel?.kind === 'new' || panel?.kind === 'edit') && (
          <PrescriptionDialog
            user={user}
            draft={panel.kind === 'edit' ? panel.rx : null}
            patientId={patientId}
            appointmentId={panel.kind === 'new' ? params.get('appointmentId') || undefined : undefined}
            onClose={closePanel}
            onSaved={(rx) => {
              closePanel();
              open(rx);
            }}
          />
        )}
        {panel?.kind === 'sign' && <SignPrescriptionDialog rx={panel.rx} onClose={closePanel} />}
        {panel?.kind === 'end' && <EndPrescriptionDialog rx={panel.rx} to={panel.to} onClose={closePanel} />}
      </Suspense>
    </div>
  );
}

/** Which patient the screen is filtered to, with her allergies, and the way back to everyone's. */
function PatientFilter({ patientId, clearHref }: { patientId: string; clearHref: string }) {
  const name = filteredPatientName(patientId, usePatient(patientId));
  return <PatientFilterBar patientId={patientId} heading={`Prescriptions for ${name}`} clearHref={clearHref} clearLabel="Show all prescriptions" />;
}
