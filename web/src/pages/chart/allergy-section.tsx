import { lazy, Suspense, useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import { ALLERGY_ASSESSMENT_LABELS, type TAllergy, type TChart } from '#domain/chart';
import { formatCalendarDate } from '#domain/clinic-time';
import { can } from '#domain/permissions';
import { useSetAllergyStatement } from '../../api/chart/allergies.ts';
import { Button } from '../../components/ui/button.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { cn } from '../../lib/utils.ts';
import { ChartListCard } from './chart-list-card.tsx';
import { DraftBadge, EntryActions, EntryRecorded } from './entry-actions.tsx';
import { ALLERGY_CATEGORY_LABELS, ALLERGY_STATUS_LABELS, ALLERGY_TYPE_LABELS, CRITICALITY_LABELS, SEVERITY_LABELS } from './chart-labels.ts';

// The forms load when first opened: most visits to a chart only read it.
const AllergyDialog = lazy(async () => ({ default: (await import('./allergy-dialog.tsx')).AllergyDialog }));
const EnteredInErrorDialog = lazy(async () => ({ default: (await import('./entered-in-error-dialog.tsx')).EnteredInErrorDialog }));
const ChartHistoryDialog = lazy(async () => ({ default: (await import('./chart-history-dialog.tsx')).ChartHistoryDialog }));

type TPanel = { kind: 'edit'; allergy: TAllergy | null } | { kind: 'error'; allergy: TAllergy } | { kind: 'history'; allergy: TAllergy };

/** The allergy list, with her statement (NKA, NKDA) and what this user may do to each entry. */
export function AllergySection({ chart, user, timeZone }: { chart: TChart; user: TCurrentUser; timeZone: string }) {
  const [panel, setPanel] = useState<TPanel | null>(null);
  const active = chart.allergies.filter((a) => a.status === 'active');
  return (
    <>
      <ChartListCard
        title="Allergies and intolerances"
        count={active.length === 0 ? 'None active' : `${active.length} active`}
        addLabel="Add allergy"
        onAdd={can(user, 'chart.record') ? () => setPanel({ kind: 'edit', allergy: null }) : null}
        empty={chart.allergies.length === 0 ? 'No allergies recorded.' : null}
        testId="allergy-section"
        before={can(user, 'chart.confirm') && <StatementControls chart={chart} />}
      >
        {chart.allergies.map((allergy) => (
          <AllergyRow
            key={allergy.id}
            allergy={allergy}
            user={user}
            timeZone={timeZone}
            onEdit={() => setPanel({ kind: 'edit', allergy })}
            onEnteredInError={() => setPanel({ kind: 'error', allergy })}
            onHistory={() => setPanel({ kind: 'history', allergy })}
          />
        ))}
      </ChartListCard>
      <Suspense fallback={null}>
        {panel?.kind === 'edit' && <AllergyDialog patientId={chart.patientId} allergy={panel.allergy} user={user} onClose={() => setPanel(null)} />}
        {panel?.kind === 'error' && (
          <EnteredInErrorDialog
            patientId={chart.patientId}
            list="allergies"
            entry={panel.allergy}
            name={panel.allergy.substance.name}
            onClose={() => setPanel(null)}
          />
        )}
        {panel?.kind === 'history' && (
          <ChartHistoryDialog
            patientId={chart.patientId}
            entryId={panel.allergy.id}
            title={panel.allergy.substance.name}
            timeZone={timeZone}
            onClose={() => setPanel(null)}
          />
        )}
      </Suspense>
    </>
  );
}

function AllergyRow({
  allergy,
  user,
  timeZone,
  onEdit,
  onEnteredInError,
  onHistory,
}: {
  allergy: TAllergy;
  user: TCurrentUser;
  timeZone: string;
  onEdit: () => void;
  onEnteredInError: () => void;
  onHistory: () => void;
}) {
  const wrong = allergy.status === 'entered_in_error';
  const facts = [
    ALLERGY_TYPE_LABELS[allergy.type],
    ALLERGY_CATEGORY_LABELS[allergy.category],
    allergy.severity && `${SEVERITY_LABELS[allergy.severity]} reaction`,
    `criticality ${CRITICALITY_LABELS[allergy.criticality].toLowerCase()}`,
    allergy.onset && `since ${formatCalendarDate(allergy.onset)}`,
  ].filter(Boolean);
  return (
    <li className="space-y-1.5 p-3" data-testid="allergy-row" data-status={allergy.status} data-state={allergy.state}>
      <div className="flex flex-wrap items-center gap-2">
        <p className={cn('font-semibold text-slate-900 break-words', wrong && 'text-slate-500 line-through')}>{allergy.substance.name}</p>
        {allergy.criticality === 'high' && !wrong && <span className="rounded bg-red-700 px-1.5 text-xs font-semibold text-white">HIGH</span>}
        {allergy.status !== 'active' && (
          <span className="rounded border px-1.5 text-xs font-medium text-slate-700">{ALLERGY_STATUS_LABELS[allergy.status]}</span>
        )}
        <DraftBadge entry={allergy} />
      </div>
      <p className="text-sm text-slate-700">
        {facts.join(' · ')}
        {allergy.reactions.length > 0 && <> · Reactions: {allergy.reactions.join(', ')}</>}
      </p>
      {allergy.note && <p className="whitespace-pre-wrap break-words text-sm text-slate-700">{allergy.note}</p>}
      <EntryRecorded entry={allergy} timeZone={timeZone} />
      <EntryActions
        list="allergies"
        entry={allergy}
        name={allergy.substance.name}
        user={user}
        inError={wrong}
        onEdit={onEdit}
        onEnteredInError={onEnteredInError}
        onHistory={onHistory}
      />
    </li>
  );
}

/**
 * NKA and NKDA: offered when her list allows them (NKA with no active allergy, NKDA with no active
 * drug allergy), withdrawn with one click; the server refuses one her list contradicts.
 */
function StatementControls({ chart }: { chart: TChart }) {
  const statement = chart.allergySummary.statement;
  const set = useSetAllergyStatement();
  const active = chart.allergies.filter((a) => a.status === 'active');
  const send = (assessment: 'nka' | 'nkda' | null) =>
    set.mutate(
      { patientId: chart.patientId, assessment },
      {
        onSuccess: () => toast({ title: assessment ? ALLERGY_ASSESSMENT_LABELS[assessment] : 'Statement withdrawn', variant: 'success' }),
        onError: (error) => reportMutationError(error, 'Could not record the statement', { withReason: true }),
      },
    );
  const offers = [
    ...(active.length === 0 && statement?.value !== 'nka' ? (['nka'] as const) : []),
    ...(!active.some((a) => a.category === 'medication') && !statement ? (['nkda'] as const) : []),
  ];
  if (offers.length === 0 && !statement) return null;
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="allergy-statement-controls">
      {offers.map((value) => (
        <Button key={value} size="sm" variant="outline" disabled={set.isPending} onClick={() => send(value)}>
          Record {ALLERGY_ASSESSMENT_LABELS[value]} ({value.toUpperCase()})
        </Button>
      ))}
      {statement && (
        <Button size="sm" variant="ghost" disabled={set.isPending} onClick={() => send(null)}>
          Withdraw {statement.value.toUpperCase()}
        </Button>
      )}
    </div>
  );
}
