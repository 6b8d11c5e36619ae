import { lazy, Suspense, useState } from 'react';
import { Plus } from 'lucide-react';
import type { TCurrentUser } from '#domain/auth';
import { ALLERGY_ASSESSMENT_LABELS, type TAllergy, type TChart } from '#domain/chart';
import { formatCalendarDate, formatClinicTime } from '#domain/clinic-time';
import { can } from '#domain/permissions';
import { useConfirmAllergy, useSetAllergyStatement } from '../../api/chart/allergies.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { reportMutationError } from '../../lib/mutation-errors.ts';
import { toast } from '../../lib/toast.ts';
import { cn } from '../../lib/utils.ts';
import { ALLERGY_CATEGORY_LABELS, ALLERGY_STATUS_LABELS, ALLERGY_TYPE_LABELS, CRITICALITY_LABELS, SEVERITY_LABELS } from './chart-labels.ts';

// The forms load when first opened: most visits to a chart only read it.
const AllergyDialog = lazy(async () => ({ default: (await import('./allergy-dialog.tsx')).AllergyDialog }));
const EnteredInErrorDialog = lazy(async () => ({ default: (await import('./entered-in-error-dialog.tsx')).EnteredInErrorDialog }));
const ChartHistoryDialog = lazy(async () => ({ default: (await import('./chart-history-dialog.tsx')).ChartHistoryDialog }));

type TPanel = { kind: 'edit'; allergy: TAllergy | null } | { kind: 'error'; allergy: TAllergy } | { kind: 'history'; allergy: TAllergy };

/** Whether this user may change an entry: a nurse or an admin any; a scribe her own draft. */
const mayChange = (user: TCurrentUser, allergy: TAllergy) =>
  allergy.status !== 'entered_in_error' && (can(user, 'chart.confirm') || (allergy.state === 'draft' && allergy.recordedById === user.id));

/** The allergy list, with her statement (NKA, NKDA) and what this user may do to each entry. */
export function AllergySection({ chart, user, timeZone }: { chart: TChart; user: TCurrentUser; timeZone: string }) {
  const [panel, setPanel] = useState<TPanel | null>(null);
  const active = chart.allergies.filter((a) => a.status === 'active');
  return (
    <Card data-testid="allergy-section">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3 space-y-0">
        <div>
          <CardTitle>Allergies and intolerances</CardTitle>
          <p className="text-sm text-slate-600">{active.length === 0 ? 'None active' : `${active.length} active`}</p>
        </div>
        {can(user, 'chart.record') && (
          <Button size="sm" onClick={() => setPanel({ kind: 'edit', allergy: null })}>
            <Plus aria-hidden="true" />
            Add allergy
          </Button>
        )}
      </CardHeader>
      <CardContent className="space-y-4">
        {can(user, 'chart.confirm') && <StatementControls chart={chart} />}
        {chart.allergies.length === 0 ? (
          <p className="rounded-md border border-dashed p-4 text-center text-sm text-slate-600" data-testid="no-allergies">
            No allergies recorded.
          </p>
        ) : (
          <ul className="divide-y rounded-md border" aria-label="Allergies">
            {chart.allergies.map((allergy) => (
              <AllergyRow
                key={allergy.id}
                allergy={allergy}
                user={user}
                timeZone={timeZone}
                mayChange={mayChange(user, allergy)}
                onEdit={() => setPanel({ kind: 'edit', allergy })}
                onEnteredInError={() => setPanel({ kind: 'error', allergy })}
                onHistory={() => setPanel({ kind: 'history', allergy })}
              />
            ))}
          </ul>
        )}
      </CardContent>
      <Suspense fallback={null}>
        {panel?.kind === 'edit' && <AllergyDialog patientId={chart.patientId} allergy={panel.allergy} user={user} onClose={() => setPanel(null)} />}
        {panel?.kind === 'error' && <EnteredInErrorDialog patientId={chart.patientId} allergy={panel.allergy} onClose={() => setPanel(null)} />}
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
    </Card>
  );
}

function AllergyRow({
  allergy,
  user,
  timeZone,
  mayChange,
  onEdit,
  onEnteredInError,
  onHistory,
}: {
  allergy: TAllergy;
  user: TCurrentUser;
  timeZone: string;
  mayChange: boolean;
  onEdit: () => void;
  onEnteredInError: () => void;
  onHistory: () => void;
}) {
  const confirm = useConfirmAllergy();
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
        {allergy.state === 'draft' && (
          <span className="rounded border border-amber-400 bg-amber-50 px-1.5 text-xs font-medium text-amber-900" data-testid="draft-badge">
            Draft: to confirm
          </span>
        )}
      </div>
      <p className="text-sm text-slate-700">
        {facts.join(' · ')}
        {allergy.reactions.length > 0 && <> · Reactions: {allergy.reactions.join(', ')}</>}
      </p>
      {allergy.note && <p className="whitespace-pre-wrap break-words text-sm text-slate-700">{allergy.note}</p>}
      <p className="text-xs text-slate-600">
        Recorded {formatClinicTime(allergy.recordedAt, timeZone)}
        {allergy.recordedByName ? ` by ${allergy.recordedByName}` : ''}
        {allergy.confirmedAt && allergy.confirmedAt !== allergy.recordedAt
          ? ` · confirmed ${formatClinicTime(allergy.confirmedAt, timeZone)}${allergy.confirmedByName ? ` by ${allergy.confirmedByName}` : ''}`
          : ''}
      </p>
      <div className="flex flex-wrap gap-2 pt-1">
        {allergy.state === 'draft' && can(user, 'chart.confirm') && !wrong && (
          <Button
            size="sm"
            disabled={confirm.isPending}
            onClick={() =>
              confirm.mutate(
                { patientId: allergy.patientId, entryId: allergy.id, version: allergy.version },
                {
                  onSuccess: () => toast({ title: 'Allergy confirmed', description: allergy.substance.name, variant: 'success' }),
                  onError: (error) => reportMutationError(error, 'Could not confirm the allergy', { withReason: true }),
                },
              )
            }
          >
            {confirm.isPending && <Spinner className="size-4 text-white" />}
            Confirm<span className="sr-only"> {allergy.substance.name}</span>
          </Button>
        )}
        {mayChange && (
          <>
            <Button size="sm" variant="outline" onClick={onEdit}>
              Edit<span className="sr-only"> {allergy.substance.name}</span>
            </Button>
            <Button size="sm" variant="outline" onClick={onEnteredInError}>
              Entered in error<span className="sr-only">: {allergy.substance.name}</span>
            </Button>
          </>
        )}
        <Button size="sm" variant="ghost" onClick={onHistory}>
          History<span className="sr-only"> of {allergy.substance.name}</span>
        </Button>
      </div>
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
