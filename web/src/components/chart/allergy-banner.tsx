import { AlertTriangle, CircleHelp, ShieldCheck } from 'lucide-react';
import { ALLERGY_ASSESSMENT_LABELS, type TAllergySummary } from '#domain/allergy-summary';
import { formatClinicTime } from '#domain/clinic-time';
import { cn } from '../../lib/utils.ts';

const TONES = {
  high: 'border-red-400 bg-red-50 text-red-950',
  listed: 'border-amber-300 bg-amber-50 text-amber-950',
  stated: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  unknown: 'border-dashed border-slate-400 bg-slate-50 text-slate-800',
} as const;

/**
 * The allergy banner (issue 51), on every screen that shows one patient, from the summary that
 * comes with her record. Three states that never look alike: allergies listed (red when any is
 * high criticality, amber otherwise), a statement (NKA, NKDA) with who made it and when, and
 * 'Allergies not recorded' (nobody asked). A scribe's unconfirmed entry is shown, and says so.
 */
export function AllergyBanner({ summary, timeZone, className }: { summary: TAllergySummary; timeZone: string; className?: string }) {
  const high = summary.allergies.some((a) => a.criticality === 'high');
  const tone = summary.state === 'listed' ? (high ? 'high' : 'listed') : summary.state === 'unknown' ? 'unknown' : 'stated';
  const Icon = tone === 'high' || tone === 'listed' ? AlertTriangle : tone === 'stated' ? ShieldCheck : CircleHelp;
  const statement = summary.statement && (
    <span data-testid="allergy-statement">
      {summary.statement.value.toUpperCase()}: {ALLERGY_ASSESSMENT_LABELS[summary.statement.value]}
      <span className="font-normal">
        {' '}
        (stated {summary.statement.byName ? `by ${summary.statement.byName}, ` : ''}
        {formatClinicTime(summary.statement.at, timeZone, 'day')})
      </span>
    </span>
  );
  return (
    <section
      aria-label="Allergies"
      data-testid="allergy-banner"
      data-state={summary.state}
      data-tone={tone}
      className={cn('flex items-start gap-2 rounded-md border px-3 py-2 text-sm', TONES[tone], className)}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0 flex-1 font-semibold">
        {summary.state === 'listed' ? (
          <>
            <span className="sr-only">Allergies: </span>
            <ul className="flex flex-wrap gap-x-3 gap-y-1">
              {summary.allergies.map((allergy, i) => (
                <li key={`${allergy.name}-${i}`} className="break-words" data-testid="banner-allergy" data-criticality={allergy.criticality}>
                  {allergy.name}
                  {allergy.criticality === 'high' && <span className="ml-1 rounded bg-red-700 px-1 text-xs text-white">HIGH</span>}
                  {allergy.reactions.length > 0 && <span className="font-normal">: {allergy.reactions.join(', ')}</span>}
                  {!allergy.confirmed && <span className="font-normal italic"> (unconfirmed)</span>}
                </li>
              ))}
            </ul>
            {statement && <p className="mt-1">{statement}</p>}
          </>
        ) : summary.state === 'unknown' ? (
          <span>Allergies not recorded: ask the patient, and record them or 'No known allergies'.</span>
        ) : (
          statement
        )}
      </div>
    </section>
  );
}
