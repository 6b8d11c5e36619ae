import { CircleCheck, Info, OctagonAlert, TriangleAlert } from 'lucide-react';
import type { TPrescriptionAlert } from '#domain/prescriptions';
import { cn } from '../../lib/utils.ts';
import { CHECK_LABELS, SEVERITY_LABELS } from './prescription-labels.ts';

const TONES = {
  high: { box: 'border-red-300 bg-red-50 text-red-950', icon: OctagonAlert, iconClass: 'text-red-700' },
  moderate: { box: 'border-amber-300 bg-amber-50 text-amber-950', icon: TriangleAlert, iconClass: 'text-amber-700' },
  low: { box: 'border-slate-300 bg-slate-50 text-slate-900', icon: Info, iconClass: 'text-slate-600' },
} as const;

/** The key an override names its alert by, as the server matches it. */
export const alertKey = (alert: Pick<TPrescriptionAlert, 'check' | 'about'>) => `${alert.check}\u0000${alert.about ?? ''}`;

/**
 * The checks' alerts, loudest first: each with its check, its severity in words (never colour
 * alone), the reason and its source, and the reason it was signed over, if it was. `none` says
 * what an empty list means; `checking` that the answer is on its way.
 */
export function PrescriptionAlerts({
  alerts,
  none = 'No alerts: no allergy, duplicate therapy, interaction or dose found on her chart.',
  checking = false,
  className,
}: {
  alerts: readonly TPrescriptionAlert[];
  none?: string | null;
  checking?: boolean;
  className?: string;
}) {
  if (alerts.length === 0) {
    if (none === null) return null;
    return (
      <p className={cn('flex items-center gap-2 text-sm text-slate-700', className)} data-testid="rx-alerts-none" aria-live="polite">
        <CircleCheck className="size-4 shrink-0 text-emerald-700" aria-hidden="true" />
        {checking ? 'Checking against her chart…' : none}
      </p>
    );
  }
  return (
    <section aria-label="Prescription checks" aria-live="polite" className={cn('space-y-2', className)} aria-busy={checking || undefined}>
      <ul className="space-y-2" data-testid="rx-alerts">
        {alerts.map((alert) => {
          const tone = TONES[alert.severity];
          const Icon = tone.icon;
          return (
            <li
              key={alertKey(alert)}
              className={cn('flex gap-2 rounded-md border p-2.5 text-sm', tone.box)}
              data-testid="rx-alert"
              data-check={alert.check}
              data-severity={alert.severity}
            >
              <Icon className={cn('mt-0.5 size-4 shrink-0', tone.iconClass)} aria-hidden="true" />
              <div className="min-w-0 space-y-0.5">
                <p className="font-semibold">
                  {CHECK_LABELS[alert.check]}: {SEVERITY_LABELS[alert.severity].toLowerCase()} severity
                </p>
                <p className="break-words">{alert.reason}</p>
                <p className="text-xs opacity-80">Source: {alert.source}</p>
                {alert.override && (
                  <p className="text-xs font-medium" data-testid="rx-override">
                    Signed over it: {alert.override}
                  </p>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
