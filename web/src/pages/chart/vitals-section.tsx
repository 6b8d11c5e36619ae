import { LineChart } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TChart } from '#domain/chart';
import { formatClinicTime } from '#domain/clinic-time';
import { can } from '#domain/permissions';
import type { TVitalSeries, TVitalsSet } from '#domain/vital-signs';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { cn } from '../../lib/utils.ts';
import { ChartListCard } from './chart-list-card.tsx';
import { DraftBadge, EntryActions, EntryRecorded } from './entry-actions.tsx';
import { SHOWN_SIGNS, SIGN_SHORT, setSummary, signLabel, vitalText } from './vital-format.ts';

// The forms load when first opened: most visits to a chart only read it.
const VitalsDialog = lazy(async () => ({ default: (await import('./vitals-dialog.tsx')).VitalsDialog }));
const EnteredInErrorDialog = lazy(async () => ({ default: (await import('./entered-in-error-dialog.tsx')).EnteredInErrorDialog }));
// The trend chart (visx) loads with the first trend opened.
const VitalTrend = lazy(async () => ({ default: (await import('./vital-trend.tsx')).VitalTrend }));
const ChartHistoryDialog = lazy(async () => ({ default: (await import('./chart-history-dialog.tsx')).ChartHistoryDialog }));

/** The latest sets shown at first: the trend holds the rest at a glance. */
const SETS_SHOWN = 3;

type TPanel = { kind: 'record' } | { kind: 'error' | 'history'; set: TVitalsSet };

/**
 * Vital signs: her latest value of each sign (flagged out of the normal range, as lab results
 * are), each sign's trend a click away, and her latest sets, each withdrawn when taken wrong.
 */
export function VitalsSection({ chart, user, timeZone }: { chart: TChart; user: TCurrentUser; timeZone: string }) {
  const [panel, setPanel] = useState<TPanel | null>(null);
  const [trend, setTrend] = useState<TVitalSeries | null>(null);
  const [allSets, setAllSets] = useState(false);
  const system = chart.unitSystem;
  const sets = chart.vitals.filter((v) => v.status === 'final');
  // The newest value of each sign, wherever it was taken.
  const latest = SHOWN_SIGNS.flatMap((sign) => {
    const set = sets.find((s) => s.values[sign] !== null && s.values[sign] !== undefined);
    return set ? [{ sign, value: set.values[sign]!, flag: set.flags[sign] ?? null, at: set.takenAt }] : [];
  });
  return (
    <>
      <ChartListCard
        title="Vital signs"
        count={sets[0] ? `Latest taken ${formatClinicTime(sets[0].takenAt, timeZone)}` : 'None recorded'}
        addLabel="Record vitals"
        onAdd={can(user, 'chart.record') ? () => setPanel({ kind: 'record' }) : null}
        empty={chart.vitals.length === 0 ? 'No vital signs recorded.' : null}
        testId="vitals-section"
        before={
          latest.length > 0 && (
            <div className="space-y-3">
              <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5" data-testid="latest-vitals">
                {latest.map(({ sign, value, flag }) => (
                  <div key={sign} className={cn('rounded-md border p-2', flag && 'border-amber-300 bg-amber-50')} data-sign={sign} data-flag={flag ?? ''}>
                    <dt className="text-xs text-slate-600">{SIGN_SHORT[sign]}</dt>
                    <dd className="flex items-start justify-between gap-1">
                      <span className="font-semibold text-slate-900">
                        {vitalText(sign, value, system)}
                        {flag && <span className="block text-xs font-medium uppercase text-amber-900">{flag}</span>}
                      </span>
                      <Button
                        size="sm"
                        variant="ghost"
                        className="h-7 px-1.5"
                        aria-pressed={trend === sign}
                        onClick={() => setTrend((shown) => (shown === sign ? null : sign))}
                      >
                        <LineChart aria-hidden="true" />
                        <span className="sr-only">Trend of {signLabel(sign)}</span>
                      </Button>
                    </dd>
                  </div>
                ))}
              </dl>
              {trend && (
                <Suspense fallback={<Skeleton className="h-48 w-full" />}>
                  <VitalTrend patientId={chart.patientId} sign={trend} system={system} timeZone={timeZone} />
                </Suspense>
              )}
            </div>
          )
        }
      >
        {chart.vitals.slice(0, allSets ? undefined : SETS_SHOWN).map((set) => {
          const wrong = set.status === 'entered_in_error';
          const when = formatClinicTime(set.takenAt, timeZone);
          return (
            <li key={set.id} className="space-y-1.5 p-3" data-testid="vitals-row" data-status={set.status} data-state={set.state}>
              <div className="flex flex-wrap items-center gap-2">
                <p className={cn('font-semibold text-slate-900', wrong && 'text-slate-500 line-through')}>Taken {when}</p>
                {wrong && <span className="rounded border px-1.5 text-xs font-medium text-slate-700">Entered in error</span>}
                <DraftBadge entry={set} />
              </div>
              <p className={cn('break-words text-sm text-slate-800', wrong && 'line-through')}>{setSummary(set, system)}</p>
              {set.note && <p className="whitespace-pre-wrap break-words text-sm text-slate-700">{set.note}</p>}
              <EntryRecorded entry={set} timeZone={timeZone} />
              <EntryActions
                list="vitals"
                entry={set}
                name={`vital signs of ${when}`}
                user={user}
                inError={wrong}
                editable={false}
                onEdit={() => undefined}
                onEnteredInError={() => setPanel({ kind: 'error', set })}
                onHistory={() => setPanel({ kind: 'history', set })}
              />
            </li>
          );
        })}
        {!allSets && chart.vitals.length > SETS_SHOWN && (
          <li className="p-2 text-center">
            <Button size="sm" variant="ghost" onClick={() => setAllSets(true)}>
              Show {chart.vitals.length - SETS_SHOWN} earlier sets
            </Button>
          </li>
        )}
      </ChartListCard>
      <Suspense fallback={null}>
        {panel?.kind === 'record' && (
          <VitalsDialog patientId={chart.patientId} system={system} timeZone={timeZone} user={user} onClose={() => setPanel(null)} />
        )}
        {panel?.kind === 'error' && (
          <EnteredInErrorDialog
            patientId={chart.patientId}
            list="vitals"
            entry={panel.set}
            name={`Vital signs of ${formatClinicTime(panel.set.takenAt, timeZone)}`}
            onClose={() => setPanel(null)}
          />
        )}
        {panel?.kind === 'history' && (
          <ChartHistoryDialog
            patientId={chart.patientId}
            entryId={panel.set.id}
            title={`vital signs of ${formatClinicTime(panel.set.takenAt, timeZone)}`}
            timeZone={timeZone}
            onClose={() => setPanel(null)}
          />
        )}
      </Suspense>
    </>
  );
}
