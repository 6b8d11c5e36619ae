import { lazy, Suspense, useState } from 'react';
import type { TCurrentUser } from '#domain/auth';
import type { TChart, TProblem } from '#domain/chart';
import { formatCalendarDate } from '#domain/clinic-time';
import { can } from '#domain/permissions';
import { cn } from '../../lib/utils.ts';
import { PROBLEM_STATUS_LABELS, VERIFICATION_LABELS } from './chart-labels.ts';
import { ChartListCard } from './chart-list-card.tsx';
import { DraftBadge, EntryActions, EntryRecorded } from './entry-actions.tsx';

// The forms load when first opened: most visits to a chart only read it.
const ProblemDialog = lazy(async () => ({ default: (await import('./problem-dialog.tsx')).ProblemDialog }));
const EnteredInErrorDialog = lazy(async () => ({ default: (await import('./entered-in-error-dialog.tsx')).EnteredInErrorDialog }));
const ChartHistoryDialog = lazy(async () => ({ default: (await import('./chart-history-dialog.tsx')).ChartHistoryDialog }));

type TPanel = { kind: 'edit'; problem: TProblem | null } | { kind: 'error' | 'history'; problem: TProblem };

/** Still a concern: what the list counts and shows first. */
const current = (p: TProblem) =>
  ['active', 'recurrence', 'relapse'].includes(p.clinicalStatus) && p.verification !== 'entered_in_error' && p.verification !== 'refuted';

/** The problem list: current problems first, then the past, then those entered in error. */
export function ProblemSection({ chart, user, timeZone }: { chart: TChart; user: TCurrentUser; timeZone: string }) {
  const [panel, setPanel] = useState<TPanel | null>(null);
  const rank = (p: TProblem) => (p.verification === 'entered_in_error' ? 2 : current(p) ? 0 : 1);
  const problems = [...chart.problems].sort((a, b) => rank(a) - rank(b));
  const active = chart.problems.filter(current).length;
  return (
    <>
      <ChartListCard
        title="Problems"
        count={active === 0 ? 'None current' : `${active} current`}
        addLabel="Add problem"
        onAdd={can(user, 'chart.record') ? () => setPanel({ kind: 'edit', problem: null }) : null}
        empty={problems.length === 0 ? 'No problems recorded.' : null}
        testId="problem-section"
      >
        {problems.map((problem) => {
          const wrong = problem.verification === 'entered_in_error';
          const facts = [
            problem.condition.code && `ICD-10-CM ${problem.condition.code}`,
            PROBLEM_STATUS_LABELS[problem.clinicalStatus],
            VERIFICATION_LABELS[problem.verification],
            problem.onset && `since ${formatCalendarDate(problem.onset)}`,
            problem.abatement && `resolved ${formatCalendarDate(problem.abatement)}`,
          ].filter(Boolean);
          return (
            <li
              key={problem.id}
              className="space-y-1.5 p-3"
              data-testid="problem-row"
              data-status={problem.clinicalStatus}
              data-verification={problem.verification}
              data-state={problem.state}
            >
              <div className="flex flex-wrap items-center gap-2">
                <p className={cn('font-semibold text-slate-900 break-words', (wrong || !current(problem)) && 'text-slate-600', wrong && 'line-through')}>
                  {problem.condition.name}
                </p>
                <DraftBadge entry={problem} />
              </div>
              <p className="text-sm text-slate-700">{facts.join(' · ')}</p>
              {problem.note && <p className="whitespace-pre-wrap break-words text-sm text-slate-700">{problem.note}</p>}
              <EntryRecorded entry={problem} timeZone={timeZone} />
              <EntryActions
                list="problems"
                entry={problem}
                name={problem.condition.name}
                user={user}
                inError={wrong}
                onEdit={() => setPanel({ kind: 'edit', problem })}
                onEnteredInError={() => setPanel({ kind: 'error', problem })}
                onHistory={() => setPanel({ kind: 'history', problem })}
              />
            </li>
          );
        })}
      </ChartListCard>
      <Suspense fallback={null}>
        {panel?.kind === 'edit' && <ProblemDialog patientId={chart.patientId} problem={panel.problem} user={user} onClose={() => setPanel(null)} />}
        {panel?.kind === 'error' && (
          <EnteredInErrorDialog
            patientId={chart.patientId}
            list="problems"
            entry={panel.problem}
            name={panel.problem.condition.name}
            onClose={() => setPanel(null)}
          />
        )}
        {panel?.kind === 'history' && (
          <ChartHistoryDialog
            patientId={chart.patientId}
            entryId={panel.problem.id}
            title={panel.problem.condition.name}
            timeZone={timeZone}
            onClose={() => setPanel(null)}
          />
        )}
      </Suspense>
    </>
  );
}
