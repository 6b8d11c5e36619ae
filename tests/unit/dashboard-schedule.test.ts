import { describe, expect, it } from 'vitest';
import type { TAppointment, TAppointmentStatus } from '#domain/appointments';
import { scheduleShown } from '../../web/src/pages/dashboard/todays-schedule.tsx';

// The dashboard's four of the day (issue 29): a stretch of the day in time order, as the Today
// tab lists it, from the last visit done before the first still to come.
const day = (...statuses: TAppointmentStatus[]) => statuses.map((status, i) => ({ id: `v${i}`, status }) as unknown as TAppointment);
const shown = (...statuses: TAppointmentStatus[]) => scheduleShown(day(...statuses)).map((a) => a.id);

describe("Today's Schedule", () => {
  it('starts with the visit just completed, then what comes next, in time order', () => {
    expect(shown('completed', 'completed', 'checked_in', 'scheduled', 'scheduled', 'scheduled')).toEqual(['v1', 'v2', 'v3', 'v4']);
  });

  it('starts at the first visit of a day that has not begun', () => {
    expect(shown('scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled')).toEqual(['v0', 'v1', 'v2', 'v3']);
  });

  it('fills from the end of the day when fewer than four remain, and shows the last four of a day all done', () => {
    expect(shown('completed', 'completed', 'completed', 'completed', 'in_progress')).toEqual(['v1', 'v2', 'v3', 'v4']);
    expect(shown('completed', 'completed', 'completed', 'completed', 'completed')).toEqual(['v1', 'v2', 'v3', 'v4']);
  });

  it('leaves out cancelled and missed visits, which are not on the schedule', () => {
    expect(shown('completed', 'cancelled', 'no_show', 'scheduled')).toEqual(['v0', 'v3']);
  });

  it('keeps a visit still open before a completed one where the day has it', () => {
    expect(shown('completed', 'scheduled', 'completed', 'in_progress', 'scheduled', 'scheduled')).toEqual(['v0', 'v1', 'v2', 'v3']);
  });
});
