import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { RELEASED_APPOINTMENT_STATUSES, ZAppointment, ZDayCount, type TAppointment, type TDayCount } from '#domain/appointments';
import type { TRole } from '#domain/roles';
import type { Queryable } from '../../db/database.ts';
import { preparedRowsOf, rowId, rowsOf } from '../../db/typed-rows.ts';
import { cursorInstantText, isoText } from '../../db/instant-text.ts';
import { after, decodeCursor, takePage, ZCursorInstant, ZCursorUuid } from '../../db/keyset.ts';
import { users } from '../../db/schema/auth.ts';
import { appointments, patients } from '../../db/schema/clinical.ts';
import type { ReadScope, Viewer } from '../../scope/read-scope.ts';
import { fullName } from '../../db/user-name.ts';

/** `status not in ('cancelled', 'no_show')`: the rows that hold their time, as the constraints say. */
export const holdsItsTimeSql = (status: SQL) => sql`${status} not in (${sql.raw(RELEASED_APPOINTMENT_STATUSES.map((s) => `'${s}'`).join(', '))})`;

/** The user id in `column` when it is the viewer's own, else null. */
const ownId = (column: SQL, viewer: Viewer) => sql`case when ${column} = ${viewer.id}::uuid then ${column} end`;

/**
 * The columns of an appointment as `viewer` may see it. Names are joined only where the viewer
 * may see them (the join condition is the rule), so a name never leaves the database for a
 * reader who may not see it: the patient's for spec section 6's readers (`appointmentPatientNames`),
 * the staff's for those who may see staff names. Where the patient's name is hidden, so is
 * her id (it would name her through GET /api/patients/{id}): only its last four characters go,
 * for the 'Patient #' label; a restricted patient's id goes (her record answers 403, and
 * emergency access needs it), never her name. `subject_id` is the patient for the audit row, never sent. The
 * assigned staff's ids go with their names: others learn only whether it is themselves (a
 * staff id would name its holder through the notes' scribe or a room's members).
 */
function visibleAppointment(scope: ReadScope): { columns: SQL; joins: SQL } {
  const { staffNames, viewer } = scope;
  // A restricted patient outside the reader's reach: the visit holds its time, nothing of her shows.
  const seen = scope.patientSeen(sql`appointments.patient_id`);
  const columns = sql`appointments.id, appointments.patient_id as subject_id,
    case when named_patient.id is not null or not ${seen} then appointments.patient_id end as "patientId",
    right(appointments.patient_id::text, 4) as "patientRef", appointments.provider_id as "providerId",
    ${isoText(sql`appointments.appointment_date`)} as "appointmentDate", ${isoText(sql`appointments.ends_at`)} as "endsAt",
    appointments.duration, appointments.appointment_type as "appointmentType", appointments.status,
    case when ${seen} then appointments.reason end as reason, case when ${seen} then appointments.notes end as notes,
    not ${seen} as "patientRestricted", appointments.room_number as "roomNumber",
    case when ${seen} then (select count(*)::int from prescriptions rx
      where rx.appointment_id = appointments.id and rx.status not in ('cancelled', 'entered_in_error')) end as "prescriptionCount",
    ${staffNames ? sql`appointments.assigned_nurse_id` : ownId(sql`appointments.assigned_nurse_id`, viewer)} as "assignedNurseId",
    ${staffNames ? sql`appointments.assigned_scribe_id` : ownId(sql`appointments.assigned_scribe_id`, viewer)} as "assignedScribeId",
    ${isoText(sql`appointments.checked_in_at`)} as "checkedInAt", ${isoText(sql`appointments.completed_at`)} as "completedAt",
    appointments.status_reason as "statusReason",
    ${isoText(sql`appointments.created_at`)} as "createdAt", ${isoText(sql`appointments.updated_at`)} as "updatedAt",
    ${fullName('named_patient')} as "patientName",
    ${staffNames ? fullName('nurse') : sql`null::text`} as "assignedNurseName",
    ${staffNames ? fullName('scribe') : sql`null::text`} as "assignedScribeName"`;
  const joins = sql`left join patients named_patient on named_patient.id = appointments.patient_id and ${scope.appointmentPatientNames} and ${seen}
    ${
      staffNames
        ? sql`left join users nurse on nurse.id = appointments.assigned_nurse_id
    left join users scribe on scribe.id = appointments.assigned_scribe_id`
        : sql``
    }`;
  return { columns, joins };
}

/** visibleAppointment's row: the appointment as the API sends it, and whose it is (`subject_id`, for the audit row). */
const ZAppointmentRow = ZAppointment.extend({ subject_id: rowId });

/** One appointment as the caller may see it, and whose it is (for the audit row), or null. */
export async function readAppointment(q: Queryable, scope: ReadScope, id: string): Promise<{ appointment: TAppointment; subjectId: string } | null> {
  const { columns, joins } = visibleAppointment(scope);
  const [row] = await rowsOf(q, ZAppointmentRow, sql`select ${columns} from appointments ${joins} where appointments.id = ${id}::uuid`);
  if (!row) return null;
  const { subject_id: subjectId, ...appointment } = row;
  return { appointment, subjectId };
}

/** The sort key a cursor holds: the start (UTC, microseconds, as the database orders) and the id. */
const ZAppointmentCursor = z.tuple([ZCursorInstant, ZCursorUuid]);
export type TAppointmentCursor = z.infer<typeof ZAppointmentCursor>;
export const decodeAppointmentCursor = (raw: string): TAppointmentCursor => decodeCursor(raw, ZAppointmentCursor);

export interface TAppointmentFilter {
  /** [start, end) as instants: the clinic days asked for. */
  from?: Date | undefined;
  to?: Date | undefined;
  patientId?: string | undefined;
}

/**
 * The rows a filter selects for the caller. Asked for one patient's appointments, a reader who
 * may not see a visit's patient is not shown that visit: the answer would tie her to its time.
 */
function matching(scope: ReadScope, filter: TAppointmentFilter): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filter.from) conditions.push(sql`appointments.appointment_date >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.to) conditions.push(sql`appointments.appointment_date < ${filter.to.toISOString()}::timestamptz`);
  if (filter.patientId) {
    conditions.push(sql`appointments.patient_id = ${filter.patientId}::uuid`, scope.appointmentPatientNames, scope.patientSeen(sql`appointments.patient_id`));
  }
  return sql.join(conditions, sql` and `);
}

const ZListedRow = ZAppointmentRow.extend({ sort_time: z.unknown(), sort_at: z.string(), total: z.number().nullable() });

/**
 * One page of appointments in time order, as `viewer` may see them; on the first page the
 * total too; and (given `audit`) the audit row naming every patient shown. One statement: a
 * single round trip, and the audit row lands with the read or not at all.
 */
export async function listAppointmentsAudited(
  q: Queryable,
  scope: ReadScope,
  audit: { head: SQL; tail: (patientIds: SQL) => SQL },
  opts: { filter: TAppointmentFilter; limit: number; after: TAppointmentCursor | null; order: 'asc' | 'desc' },
) {
  const { columns, joins } = visibleAppointment(scope);
  const where = [matching(scope, opts.filter)];
  if (opts.after) {
    where.push(
      after([sql`appointments.appointment_date`, sql`appointments.id`], [sql`${opts.after[0]}::timestamptz`, sql`${opts.after[1]}::uuid`], opts.order),
    );
  }
  const direction = sql.raw(opts.order);
  // The total is counted by the same statement, on the first page only (later pages know it).
  const total = opts.after ? sql`null::int` : sql`(select count(*)::int from appointments where ${matching(scope, opts.filter)})`;
  const statement = sql`
    with page as (
      select ${columns}, appointments.appointment_date as sort_time,
        ${cursorInstantText(sql`appointments.appointment_date`)} as sort_at
      from appointments ${joins}
      where ${sql.join(where, sql` and `)}
      order by appointments.appointment_date ${direction}, appointments.id ${direction}
      limit ${opts.limit + 1}
    ), shown as (
      select array_agg(distinct subject_id) as ids
      from (select subject_id from page order by sort_time ${direction}, id ${direction} limit ${opts.limit}) first_rows
    ), recorded as (
      insert into audit_events (actor_id, action, entity_type, patient_ids, ip, user_agent, break_glass_id)
      select ${audit.head}, ids, ${audit.tail(sql`ids`)} from shown where ids is not null
    )
    select page.*, ${total} as total from page order by sort_time ${direction}, id ${direction}`;
  // The plan is the time-order index walk whatever the values, except for one patient's
  // appointments, which its own index serves better.
  const rows = opts.filter.patientId
    ? await rowsOf(q, ZListedRow, statement)
    : await preparedRowsOf(q, ZListedRow, `appointments_page_${opts.order}${scope.restrictedReach ? '_reach' : ''}`, statement);
  const { page, nextCursor } = takePage(rows, opts.limit, (r) => [r.sort_at, r.id]);
  return {
    items: page.map(({ subject_id: _subject, sort_time: _time, sort_at: _at, total: _total, ...item }): TAppointment => item),
    // No row on a first page: nothing matched.
    total: opts.after ? null : (rows[0]?.total ?? 0),
    nextCursor,
  };
}

/** The appointment row, locked until the transaction ends so concurrent edits queue. */
export async function lockAppointment(q: Queryable, id: string) {
  const [row] = await q.select().from(appointments).where(eq(appointments.id, id)).for('update');
  return row ?? null;
}
export type TAppointmentRow = NonNullable<Awaited<ReturnType<typeof lockAppointment>>>;

export async function findPatientForBooking(q: Queryable, id: string) {
  const [row] = await q
    .select({ isActive: patients.isActive, firstName: patients.firstName, lastName: patients.lastName })
    .from(patients)
    .where(eq(patients.id, id));
  return row ?? null;
}

export async function findUsers(q: Queryable, ids: string[]): Promise<{ id: string; role: TRole; isActive: boolean }[]> {
  if (ids.length === 0) return [];
  return q.select({ id: users.id, role: users.role, isActive: users.isActive }).from(users).where(inArray(users.id, ids));
}

/**
 * The appointments of a patient whose assigned nurse is `authorId` and whose visit had begun by
 * `at` (checked in, else its booked time), still holding an active notice: those a note she
 * writes then answers, by check-missing-notes' own rule.
 */
export async function visitsAwaitingNotesFrom(q: Queryable, note: { patientId: string; authorId: string; at: Date }): Promise<string[]> {
  const rows = await rowsOf(
    q,
    z.object({ id: rowId }),
    sql`select appointments.id from appointments
    where appointments.patient_id = ${note.patientId}::uuid and appointments.assigned_nurse_id = ${note.authorId}::uuid
      and ${holdsItsTimeSql(sql`appointments.status`)}
      and coalesce(appointments.checked_in_at, appointments.appointment_date) <= ${note.at.toISOString()}::timestamptz
      and exists (select 1 from notifications n where n.entity_id = appointments.id::text and n.is_active)`,
  );
  return rows.map((r) => r.id);
}

/** Active users of a role (who is told that a visit was missed). */
export async function activeUserIds(q: Queryable, role: TRole): Promise<string[]> {
  const rows = await q
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, role), eq(users.isActive, true)));
  return rows.map((r) => r.id);
}

/**
 * How many appointments that hold their time start on each clinic day of [from, to), days
 * taken in `timeZone`: only the days with any, in date order. One grouped count by the
 * database (an index range scan of `appointments_date_idx`), however many a month holds.
 */
export async function countAppointmentsByDay(q: Queryable, range: { from: Date; to: Date; timeZone: string }): Promise<TDayCount[]> {
  return rowsOf(
    q,
    ZDayCount,
    sql`
    select to_char(appointment_date at time zone ${range.timeZone}, 'YYYY-MM-DD') as date, count(*)::int as count
    from appointments
    where appointment_date >= ${range.from.toISOString()}::timestamptz and appointment_date < ${range.to.toISOString()}::timestamptz
      and ${holdsItsTimeSql(sql`status`)}
    group by 1
    order by 1`,
  );
}
