import { describe, expect, it } from 'vitest';
import { visitTimingRefusal } from '#domain/visit-timing';
import { APPOINTMENT_WORKFLOW } from '#domain/workflows';

// Times are the clinic's wall clock; the process's own zone must not matter (run under several TZ).
const NY = 'America/New_York';
const at = (iso: string) => new Date(iso);

describe('on the visit day (Check In, Start Visit)', () => {
  const visit = { appointmentDate: '2026-11-25T18:00:00Z', duration: 30 }; // 1:00 PM in New York

  it.each([
    ['at the first moment of its clinic day', '2026-11-25T05:00:00Z', true],
    ['early that morning, before its time', '2026-11-25T13:10:00Z', true],
    ['after its time, the same evening', '2026-11-26T04:59:59Z', true],
    ['the evening before (33 hours early, as the outside walk found)', '2026-11-24T09:00:00Z', false],
    ['a minute before its day begins', '2026-11-25T04:59:00Z', false],
    ['the next day', '2026-11-26T05:00:00Z', false],
  ])('%s: %s', (_what, now, allowed) => {
    expect(visitTimingRefusal('onVisitDay', visit, at(now), NY) === null).toBe(allowed);
  });

  it('names the day in the clinic zone', () => {
    expect(visitTimingRefusal('onVisitDay', visit, at('2026-11-24T09:00:00Z'), NY)).toBe(
      'This visit is on Nov 25, 2026: a visit is checked in and started on its own day.',
    );
  });

  it('lets a visit that runs past midnight be started until it ends', () => {
    const late = { appointmentDate: '2026-11-26T04:45:00Z', duration: 60 }; // 11:45 PM to 12:45 AM
    expect(visitTimingRefusal('onVisitDay', late, at('2026-11-26T05:30:00Z'), NY)).toBeNull();
    expect(visitTimingRefusal('onVisitDay', late, at('2026-11-26T05:46:00Z'), NY)).not.toBeNull();
  });

  it('follows the clinic day across a daylight-saving change (a 25-hour day)', () => {
    const visit = { appointmentDate: '2026-11-01T15:00:00Z', duration: 30 }; // 10:00 AM EST
    expect(visitTimingRefusal('onVisitDay', visit, at('2026-11-01T04:00:00Z'), NY)).toBeNull(); // midnight EDT
    expect(visitTimingRefusal('onVisitDay', visit, at('2026-11-02T04:59:00Z'), NY)).toBeNull(); // 11:59 PM EST
    expect(visitTimingRefusal('onVisitDay', visit, at('2026-11-02T05:00:00Z'), NY)).not.toBeNull();
  });
});

describe('from the visit start (Complete, No-show)', () => {
  const visit = { appointmentDate: '2026-11-25T18:00:00Z', duration: 30 };

  it('refuses before the booked time, saying when, and allows it from then on, days later too', () => {
    expect(visitTimingRefusal('fromVisitStart', visit, at('2026-11-25T05:36:00Z'), NY)).toBe(
      'This visit starts at Nov 25, 2026, 1:00 PM: it cannot be completed, or marked a no-show, before it begins.',
    );
    expect(visitTimingRefusal('fromVisitStart', visit, at('2026-11-25T18:00:00Z'), NY)).toBeNull();
    expect(visitTimingRefusal('fromVisitStart', visit, at('2026-11-27T09:00:00Z'), NY)).toBeNull();
  });
});

describe('the workflow table names the timing of each move', () => {
  it('Check In and Start Visit on the day; Complete and No-show from the start; Cancel any time', () => {
    const timing = Object.fromEntries(APPOINTMENT_WORKFLOW.moves.map((m) => [`${m.from}>${m.to}`, m.timing ?? 'any']));
    expect(timing).toEqual({
      'scheduled>checked_in': 'onVisitDay',
      'checked_in>in_progress': 'onVisitDay',
      'in_progress>completed': 'fromVisitStart',
      'scheduled>cancelled': 'any',
      'checked_in>cancelled': 'any',
      'scheduled>no_show': 'fromVisitStart',
      'checked_in>no_show': 'fromVisitStart',
    });
  });
});
