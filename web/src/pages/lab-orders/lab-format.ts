import { isAbnormal, isCritical, type TLabFlag } from '#domain/lab-flags';
import { LAB_REVIEW_AGE_DAYS, reviewAge, type TLabOrder, type TLabResult } from '#domain/labs';

/** Each flag in words, always written beside its letters and its colour (never colour alone). */
export const FLAG_WORDS: Record<TLabFlag, string> = {
  N: 'Normal',
  L: 'Low',
  H: 'High',
  LL: 'Critical low',
  HH: 'Critical high',
  A: 'Abnormal',
  AA: 'Critically abnormal',
};

export type TFlagTone = 'critical' | 'abnormal' | 'normal';
export const flagTone = (flag: TLabFlag): TFlagTone => (isCritical(flag) ? 'critical' : isAbnormal(flag) ? 'abnormal' : 'normal');

/** A number as the lab wrote it: no trailing zeros added, none of float's noise (0.1 + 0.2). */
export const formatNumber = (value: number) => String(Number(value.toPrecision(12)));

/** A result's value with its unit: '6.8 mmol/L', 'Yellow'. */
export function formatValue(result: Pick<TLabResult, 'valueNumeric' | 'valueText' | 'unit'>): string {
  if (result.valueNumeric !== null) return `${formatNumber(result.valueNumeric)}${result.unit ? ` ${result.unit}` : ''}`;
  return result.valueText ?? '';
}

type TRangeLimits = { low: number | null; high: number | null; criticalLow?: number | null; criticalHigh?: number | null };

/** The reference range: '3.5–5.1', '≤ 199', '≥ 50'; empty without one. */
export function formatReference(range: TRangeLimits | null): string {
  if (!range) return '';
  const { low, high } = range;
  if (low !== null && high !== null) return `${formatNumber(low)}–${formatNumber(high)}`;
  if (high !== null) return `≤ ${formatNumber(high)}`;
  if (low !== null) return `≥ ${formatNumber(low)}`;
  return '';
}

/** The critical limits, in words: 'critical ≤ 2.5 or ≥ 6.5'; empty without any. */
export function formatCritical(range: TRangeLimits | null): string {
  if (!range) return '';
  const limits = [
    range.criticalLow !== null && range.criticalLow !== undefined ? `≤ ${formatNumber(range.criticalLow)}` : null,
    range.criticalHigh !== null && range.criticalHigh !== undefined ? `≥ ${formatNumber(range.criticalHigh)}` : null,
  ].filter(Boolean);
  return limits.length > 0 ? `critical ${limits.join(' or ')}` : '';
}

/** Whether an order is still to be resulted after the day its results were expected (a clinic day). */
export const isOverdue = (order: Pick<TLabOrder, 'status' | 'expectedOn'>, today: string) =>
  (order.status === 'ordered' || order.status === 'pending') && order.expectedOn !== null && order.expectedOn < today;

/** How long results have waited for review, in words and by the domain's ages (amber from 7 days, red from 14). */
export function reviewWait(receivedAt: string, now: Date): { age: 'fresh' | 'amber' | 'red'; text: string } {
  const age = reviewAge(receivedAt, now);
  const hours = Math.max(0, Math.floor((now.getTime() - new Date(receivedAt).getTime()) / 3_600_000));
  const days = Math.floor(hours / 24);
  const waited = days >= 1 ? `${days} ${days === 1 ? 'day' : 'days'}` : hours >= 1 ? `${hours} ${hours === 1 ? 'hour' : 'hours'}` : 'under an hour';
  const over = age === 'red' ? `, over ${LAB_REVIEW_AGE_DAYS.red} days` : age === 'amber' ? `, over ${LAB_REVIEW_AGE_DAYS.amber} days` : '';
  return { age, text: `Waiting ${waited} for review${over}` };
}

/**
 * What happens after a critical value is saved, said to whoever saved it (issue 50): the alert's
 * banner waits on the order for its ordering provider (for her own order, that is her: no notice
 * goes to the one who acted), and the admins are told if nobody acknowledges it in time.
 */
export function criticalNextStep(order: { providerId: string | null; providerName: string | null }, actorId: string | null): string {
  const escalation = 'if nobody acknowledges it in time, the admins are told.';
  if (order.providerId !== null && order.providerId === actorId) return `Acknowledge it in the alert on the order: ${escalation}`;
  return `${order.providerName ?? 'The ordering provider'} is alerted; ${escalation}`;
}
