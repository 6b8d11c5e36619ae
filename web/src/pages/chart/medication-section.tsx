import { Pill } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'wouter';
import type { TCurrentUser } from '#domain/auth';
import type { TChart, TMedication } from '#domain/chart';
import { formatCalendarDate } from '#domain/clinic-time';
import { can } from '#domain/permissions';
import type { TPrescription } from '#domain/prescriptions';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/utils.ts';
import { ROUTE_LABELS } from '../../components/chart/route-labels.ts';
import { MEDICATION_SOURCE_LABELS, MEDICATION_STATUS_LABELS } from './chart-labels.ts';
import { ChartListCard } from './chart-list-card.tsx';
import { DraftBadge, EntryActions, EntryRecorded } from './entry-actions.tsx';
import { MedicationPrescription, usePrescriptionsInForce } from './medication-prescription.tsx';

// The forms load when first opened: most visits to a chart only read it.
const MedicationDialog = lazy(async () => ({ default: (await import('./medication-dialog.tsx')).MedicationDialog }));
const EnteredInErrorDialog = lazy(async () => ({ default: (await import('./entered-in-error-dialog.tsx')).EnteredInErrorDialog }));
const ChartHistoryDialog = lazy(async () => ({ default: (await import('./chart-history-dialog.tsx')).ChartHistoryDialog }));
const EndPrescriptionDialog = lazy(async () => ({
  default: (await import('../../components/prescriptions/end-prescription-dialog.tsx')).EndPrescriptionDialog,
}));

type TPanel =
  { kind: 'edit'; medication: TMedication | null } | { kind: 'error' | 'history'; medication: TMedication } | { kind: 'discontinue'; rx: TPrescription };

const RANK: Record<TMedication['status'], number> = { active: 0, on_hold: 1, stopped: 2, entered_in_error: 3 };

/**
 * The medication list: what she takes now first, then on hold, stopped, and entered in error. A
 * medication prescribed here shows its prescription, to renew or discontinue (issue 52);
 * 'Prescribe' writes a new one on the Prescriptions screen, for her.
 */
export function MedicationSection({ chart, user, timeZone }: { chart: TChart; user: TCurrentUser; timeZone: string }) {
  const [panel, setPanel] = useState<TPanel | null>(null);
  const prescribed = usePrescriptionsInForce(chart.patientId, user);
  const medications = [...chart.medications].sort((a, b) => RANK[a.status] - RANK[b.status]);
  const active = chart.medications.filter((m) => m.status === 'active').length;
  return (
    <>
      <ChartListCard
        title="Medications"
        count={active === 0 ? 'None active' : `${active} active`}
        addLabel="Add medication"
        onAdd={can(user, 'chart.record') ? () => setPanel({ kind: 'edit', medication: null }) : null}
        empty={medications.length === 0 ? 'No medications recorded.' : null}
        testId="medication-section"
        actions={
          can(user, 'prescriptions.prepare') && (
            <Button size="sm" variant="outline" asChild>
              <Link href={`/prescriptions?patientId=${encodeURIComponent(chart.patientId)}&write=1`}>
                <Pill aria-hidden="true" />
                Prescribe
              </Link>
            </Button>
          )
        }
      >
        {medications.map((medication) => {
          const wrong = medication.status === 'entered_in_error';
          const sig = [medication.dose, medication.route && ROUTE_LABELS[medication.route].toLowerCase(), medication.frequency].filter(Boolean).join(', ');
          const course = [
            medication.start && `since ${formatCalendarDate(medication.start)}`,
            medication.stop && `stopped ${formatCalendarDate(medication.stop)}${medication.stopReason ? ` (${medication.stopReason})` : ''}`,
            MEDICATION_SOURCE_LABELS[medication.source],
          ].filter(Boolean);
          return (
            <li key={medication.id} className="space-y-1.5 p-3" data-testid="medication-row" data-status={medication.status} data-state={medication.state}>
              <div className="flex flex-wrap items-center gap-2">
                <p className={cn('font-semibold text-slate-900 break-words', medication.status !== 'active' && 'text-slate-600', wrong && 'line-through')}>
                  {medication.medication.name}
                </p>
                {medication.status !== 'active' && (
                  <span className="rounded border px-1.5 text-xs font-medium text-slate-700">{MEDICATION_STATUS_LABELS[medication.status]}</span>
                )}
                <DraftBadge entry={medication} />
              </div>
              {sig && <p className="text-sm text-slate-800">{sig}</p>}
              <p className="text-sm text-slate-700">{course.join(' · ')}</p>
              {medication.note && <p className="whitespace-pre-wrap break-words text-sm text-slate-700">{medication.note}</p>}
              <EntryRecorded entry={medication} timeZone={timeZone} />
              {prescribed.has(medication.id) && (
                <MedicationPrescription rx={prescribed.get(medication.id)!} user={user} onDiscontinue={(rx) => setPanel({ kind: 'discontinue', rx })} />
              )}
              <EntryActions
                list="medications"
                entry={medication}
                name={medication.medication.name}
                user={user}
                inError={wrong}
                onEdit={() => setPanel({ kind: 'edit', medication })}
                onEnteredInError={() => setPanel({ kind: 'error', medication })}
                onHistory={() => setPanel({ kind: 'history', medication })}
              />
            </li>
          );
        })}
      </ChartListCard>
      <Suspense fallback={null}>
        {panel?.kind === 'edit' && <MedicationDialog patientId={chart.patientId} medication={panel.medication} user={user} onClose={() => setPanel(null)} />}
        {panel?.kind === 'error' && (
          <EnteredInErrorDialog
            patientId={chart.patientId}
            list="medications"
            entry={panel.medication}
            name={panel.medication.medication.name}
            onClose={() => setPanel(null)}
          />
        )}
        {panel?.kind === 'discontinue' && <EndPrescriptionDialog rx={panel.rx} to="discontinued" onClose={() => setPanel(null)} />}
        {panel?.kind === 'history' && (
          <ChartHistoryDialog
            patientId={chart.patientId}
            entryId={panel.medication.id}
            title={panel.medication.medication.name}
            timeZone={timeZone}
            onClose={() => setPanel(null)}
          />
        )}
      </Suspense>
    </>
  );
}
