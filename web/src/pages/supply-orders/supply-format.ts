import { addDays, formatCalendarDate } from '#domain/clinic-time';
import { formatCount } from '#domain/report-format';
import { SUPPLY_EXPIRY_WINDOWS, SUPPLY_LIMITS, type TSupplyItem } from '#domain/supplies';

/** Days counted as 'soon' for an expiry: the Stock tab's first window. */
export const EXPIRY_SOON_DAYS = SUPPLY_EXPIRY_WINDOWS[0];

export type TExpiryTone = 'expired' | 'soon' | 'later';

/** Whether an expiry day is past (red), within 30 days of the clinic's today (amber), or later. */
export function expiryTone(expiresOn: string, today: string): TExpiryTone {
  if (expiresOn < today) return 'expired';
  return expiresOn <= addDays(today, EXPIRY_SOON_DAYS) ? 'soon' : 'later';
}

/** An expiry in words, never by colour alone: 'Expired Mar 4, 2026', 'Expires Apr 2, 2026 (soon)'. */
export function expiryText(expiresOn: string, today: string): string {
  const tone = expiryTone(expiresOn, today);
  const day = formatCalendarDate(expiresOn);
  return tone === 'expired' ? `Expired ${day}` : tone === 'soon' ? `${day} (soon)` : day;
}

/** A count of an item's unit: '12 box', '1 each', as stock lists write them. */
export const units = (quantity: number, unit: string) => `${formatCount(quantity)} ${unit}`;

/** 'box of 10', or the unit alone when it comes one at a time. */
export const packText = (item: Pick<TSupplyItem, 'unit' | 'packSize'>) => (item.packSize > 1 ? `packs of ${item.packSize}` : `by the ${item.unit}`);

/** Cents as the dollars typed in a price field: '12.50'; '' for none. */
export const centsToDollars = (cents: number | null | undefined) => (cents === null || cents === undefined ? '' : (cents / 100).toFixed(2));

/**
 * A price typed in dollars ('12.5', '$1,234.50') as integer cents, never through floating point
 * ('0.29' is 29 cents, not 28.999…); null when it is not such a price.
 */
export function dollarsToCents(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '');
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** The most a quantity input takes. */
export const MAX_QUANTITY = SUPPLY_LIMITS.quantity;
