import { describe, expect, it } from 'vitest';
import { addDays, formatClinicTime, startOfZonedDay, zonedDate, zonedDayRange } from '#domain/clinic-time';

describe('clinic days', () => {
  it.each([
    ['UTC', '2026-03-10', '2026-03-10T00:00:00.000Z'],
    ['America/New_York', '2026-03-10', '2026-03-10T04:00:00.000Z'],
    ['Europe/Berlin', '2026-07-01', '2026-06-30T22:00:00.000Z'],
    ['Asia/Kolkata', '2026-01-15', '2026-01-14T18:30:00.000Z'],
    ['Pacific/Auckland', '2026-01-15', '2026-01-14T11:00:00.000Z'],
  ])('in %s, %s starts at %s', (zone, date, instant) => {
    expect(startOfZonedDay(date, zone).toISOString()).toBe(instant);
  });

  it('a day that loses an hour to daylight saving is 23 hours long, one that gains is 25', () => {
    const spring = zonedDayRange('2026-03-08', 'America/New_York');
    expect((spring.end.getTime() - spring.start.getTime()) / 3_600_000).toBe(23);
    const autumn = zonedDayRange('2026-11-01', 'America/New_York');
    expect((autumn.end.getTime() - autumn.start.getTime()) / 3_600_000).toBe(25);
  });

  it('the calendar date of an instant depends on the zone', () => {
    const lateEvening = new Date('2026-05-01T02:30:00Z');
    expect(zonedDate(lateEvening, 'UTC')).toBe('2026-05-01');
    expect(zonedDate(lateEvening, 'America/Los_Angeles')).toBe('2026-04-30');
    expect(zonedDate(lateEvening, 'Asia/Tokyo')).toBe('2026-05-01');
  });

  it('adds days across month and year ends', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
  });
});

describe('times as people read them', () => {
  it("are on the clinic's clock, whatever the machine's zone", () => {
    const instant = '2026-03-01T14:04:12.000Z';
    expect(formatClinicTime(instant, 'America/New_York')).toBe('Mar 1, 2026, 9:04 AM');
    expect(formatClinicTime(instant, 'Asia/Kolkata', 'second')).toBe('Mar 1, 2026, 7:34:12 PM');
    expect(formatClinicTime(new Date(instant), 'UTC')).toBe('Mar 1, 2026, 2:04 PM');
    expect(formatClinicTime('not a time', 'UTC')).toBe('');
  });
});
