import { sql } from 'drizzle-orm';
import { ZAppointmentConflict, type TAppointmentConflict } from '#domain/appointments';
import type { Queryable } from '../../db/database.ts';
import { rowsOf } from '../../db/typed-rows.ts';
import { HttpError } from '../../http/errors.ts';
import { isoText } from '../../db/instant-text.ts';
import { holdsItsTimeSql } from './appointments.queries.ts';
import { SQL_STATE, sqlStateOf } from '../../db/sql-state.ts';

/**
 * Double booking. The rule is the database's: four exclusion constraints (migration 0007) refuse
 * any two appointments that hold their time and overlap for the same patient, room (any case),
 * assigned nurse or assigned scribe, with half-open ranges so back-to-back is fine. That holds
 * however requests race. `findConflicts` asks the same question of the rows already there: to
 * answer before submit, to refuse early with the list, and to list what a refused write hit.
 */

/** Where and when an appointment is, and who it holds. */
export interface TPlacement {
  start: Date;
  durationMinutes: number;
  patientId: string | null;
  roomNumber: string | null;
  assignedNurseId: string | null;
  assignedScribeId: string | null;
}

export const endOf = (p: Pick<TPlacement, 'start' | 'durationMinutes'>) => new Date(p.start.getTime() + p.durationMinutes * 60_000);

/** Every appointment holding its time that `placement` would overlap, once per kind of clash, in time order. */
export async function findConflicts(q: Queryable, placement: TPlacement, excludeId: string | null): Promise<TAppointmentConflict[]> {
  const uuid = (v: string | null) => sql`${v}::uuid`;
  const room = sql`lower(${placement.roomNumber}::text)`;
  return rowsOf(
    q,
    ZAppointmentConflict,
    sql`
    select kind.name as kind, appointments.id as "appointmentId",
      ${isoText(sql`appointments.appointment_date`)} as start, ${isoText(sql`appointments.ends_at`)} as "end"
    from appointments
    cross join lateral (values
      (1, 'patient', appointments.patient_id = ${uuid(placement.patientId)}),
      (2, 'room', lower(appointments.room_number) = ${room}),
      (3, 'nurse', appointments.assigned_nurse_id = ${uuid(placement.assignedNurseId)}),
      (4, 'scribe', appointments.assigned_scribe_id = ${uuid(placement.assignedScribeId)})
    ) as kind(rank, name, hit)
    where kind.hit
      and (appointments.patient_id = ${uuid(placement.patientId)} or lower(appointments.room_number) = ${room}
        or appointments.assigned_nurse_id = ${uuid(placement.assignedNurseId)}
        or appointments.assigned_scribe_id = ${uuid(placement.assignedScribeId)})
      and ${holdsItsTimeSql(sql`appointments.status`)}
      and tstzrange(appointments.appointment_date, appointments.ends_at, '[)')
        && tstzrange(${placement.start.toISOString()}::timestamptz, ${endOf(placement).toISOString()}::timestamptz, '[)')
      ${excludeId ? sql`and appointments.id <> ${excludeId}::uuid` : sql``}
    order by appointments.appointment_date, kind.rank, appointments.id`,
  );
}

export const conflictError = (conflicts: TAppointmentConflict[]) => new HttpError('appointment.conflict', { extra: { conflicts } });

/** Refuses a placement that clashes with what is already booked (the early, listed answer). */
export async function refuseConflicts(q: Queryable, placement: TPlacement, excludeId: string | null): Promise<void> {
  const conflicts = await findConflicts(q, placement, excludeId);
  if (conflicts.length > 0) throw conflictError(conflicts);
}

/** An exclusion constraint refused the write: the clash came from a request that raced this one. */
function isExclusionViolation(error: unknown): boolean {
  return sqlStateOf(error) === SQL_STATE.exclusionViolation;
}

/** How often a write is tried again when the appointment it clashed with was gone by the time we looked. */
const ATTEMPTS = 3;

/**
 * Runs a booking (a transaction that checks, then writes). When a concurrent booking won the
 * race, the database refuses this one; once its transaction has rolled back, the clashes are
 * read and answered as the early check would. Should the winner itself have rolled back in the
 * meantime (nothing to list), the booking is simply tried again.
 */
export async function withConflictRefusal<T>(q: Queryable, placement: () => TPlacement | null, excludeId: string | null, book: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await book();
    } catch (error) {
      const where = isExclusionViolation(error) ? placement() : null;
      if (!where) throw error;
      const conflicts = await findConflicts(q, where, excludeId);
      if (conflicts.length > 0 || attempt >= ATTEMPTS) throw conflictError(conflicts);
    }
  }
}
