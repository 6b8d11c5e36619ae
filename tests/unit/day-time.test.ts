import { describe, expect, it } from 'vitest';
import { formatDayTime, formatLongDate } from '#domain/clinic-time';

describe("chat times ('MMM d, h:mm a', spec section 9)", () => {
  it("are shown in the clinic's time zone, whatever the zone of the machine showing them", () => {
    // 20:07 UTC is 3:07 PM in New York and 5:07 AM the next day in Tokyo.
    expect(formatDayTime('2026-01-05T20:07:00Z', 'America/New_York')).toBe('Jan 5, 3:07 PM');
    expect(formatDayTime('2026-01-05T20:07:00Z', 'Asia/Tokyo')).toBe('Jan 6, 5:07 AM');
  });

  it('follow daylight saving time, and use plain spaces only', () => {
    expect(formatDayTime('2026-07-05T20:07:00Z', 'America/New_York')).toBe('Jul 5, 4:07 PM');
    expect(formatDayTime('2026-11-01T05:30:00Z', 'America/New_York')).toBe('Nov 1, 1:30 AM');
    expect(formatDayTime('2026-11-01T06:30:00Z', 'America/New_York')).toBe('Nov 1, 1:30 AM');
  });
});

describe("the dashboard's date ('EEEE, MMMM d, yyyy')", () => {
  it("is the clinic's day, which may not be the machine's", () => {
    expect(formatLongDate('2026-11-24T03:00:00Z', 'America/New_York')).toBe('Monday, November 23, 2026');
    expect(formatLongDate('2026-11-24T03:00:00Z', 'Asia/Tokyo')).toBe('Tuesday, November 24, 2026');
  });
});
