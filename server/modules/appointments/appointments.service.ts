import { eq } from 'drizzle-orm';
import {
  APPOINTMENT_PLACEMENT_FIELDS,
  mayReschedule,
  type TAppointment,
  type TAppointmentConflict,
  type TAppointmentFieldName,
  type TAppointmentListQuery,
  type TAppointmentStatus,
  type TClinicTime,
  type TConflictQuery,
  type TCreateAppointment,
  type TDayCounts,
  type TDayCountsQuery,
  type TUpdateAppointment,
} from '#domain/appointments';
import { addDays, startOfZonedDay, zonedDate, zonedDayRange } from '#domain/clinic-time';
import type { TFieldError } from '#domain/errors';
import { can } from '#domain/permissions';
import { visitTimingRefusal } from '#domain/visit-timing';
import { APPOINTMENT_WORKFLOW, serverSetFields, type TMove } from '#domain/workflows';
import type { Queryable } from '../../db/database.ts';
import { appointments } from '../../db/schema/clinical.ts';
import { inTransaction, type Raise } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { forbidden, HttpError, invalid, invalidFields, notFound, stale } from '../../http/errors.ts';
import { decideMove } from '../../workflows/decide-move.ts';
import type { TServedPage } from '../../http/paging.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { writerOf } from '../../scope/writer.ts';
import { scopeOf } from '../../scope/read-scope.ts';
import { readOf } from '../../scope/reader.ts';
import { findConflicts, refuseConflicts, withConflictRefusal, type TPlacement } from './booking-conflicts.ts';
import { noticeAssigned, noticeRescheduled, resolveOnMove, resolveStaffNotices, type TAppointmentNotice, type TStaffRole } from './appointments.notices.ts';
import {
  countAppointmentsByDay,
  decodeAppointmentCursor,
  findPatientForBooking,
  findUsers,
  listAppointmentsAudited,
  lockAppointment,
  readAppointment,
  type TAppointmentFilter,
  type TAppointmentRow,
} from './appointments.queries.ts';

const NOT_FOUND = 'Appointment not found';

/** The reads of appointments, each as the caller may see them (names by spec section 6). */
export const APPOINTMENT_READS = {
  /**
   * Appointments (every one, for every role that reads appointments), in time order (soonest or
   * latest first), a page at a time. Days are the clinic's (its time zone setting): an
   * appointment belongs to the day it starts on. The page and its audit row, with every patient
   * shown, are one statement.
   */
  list: readOf({
    action: 'appointment.list',
    entityType: 'appointment',
    run: ({ db, deps, scope, auditInStatement }, query: TAppointmentListQuery): Promise<TServedPage<TAppointment>> =>
      listAppointmentsAudited(db, scope, auditInStatement(), {
        filter: clinicDays(deps, query),
        limit: query.limit,
        after: query.cursor ? decodeAppointmentCursor(query.cursor) : null,
        order: query.order,
      }),
    shows: () => null,
  }),
  get: readOf({
    action: 'appointment.read',
    entityType: 'appointment',
    notFound: NOT_FOUND,
    run: ({ db, scope }, id: string) => readAppointment(db, scope, id),
    shows: (read, id) => ({ entityId: id, patientId: read.subjectId }),
  }),
  /**
   * What a booking would clash with, asked before submitting: the same question, in the same
   * words, as the 409 of a create or a reschedule. A clash with a patient's appointment reveals
   * when they are booked, so an answer that lists any is audited.
   */
  conflicts: readOf({
    action: 'appointment.conflicts',
    entityType: 'appointment',
    run: async ({ db }, query: TConflictQuery): Promise<{ conflicts: TAppointmentConflict[] }> => ({
      conflicts: await findConflicts(
        db,
        {
          start: new Date(query.appointmentDate),
          durationMinutes: query.duration,
          patientId: query.patientId ?? null,
          roomNumber: query.roomNumber ?? null,
          assignedNurseId: query.assignedNurseId ?? null,
          assignedScribeId: query.assignedScribeId ?? null,
        },
        query.excludeId ?? null,
      ),
    }),
    shows: ({ conflicts }, query) => (query.patientId && conflicts.some((c) => c.kind === 'patient') ? { patientId: query.patientId } : null),
  }),
};

function clinicDays(deps: Deps, query: TAppointmentListQuery): TAppointmentFilter {
  const zone = deps.settings.current().timeZone;
  if (query.date) {
    const { start, end } = zonedDayRange(query.date, zone);
    return { from: start, to: end, patientId: query.patientId };
  }
  return {
    from: query.from ? startOfZonedDay(query.from, zone) : undefined,
    to: query.to ? startOfZonedDay(addDays(query.to, 1), zone) : undefined,
    patientId: query.patientId,
  };
}

/**
 * The calendar's load per clinic day, from `from` to `to` (both inclusive), counting the
 * appointments that hold their time. Counts only: no patient is named, so nothing is audited.
 */
export async function dayCountsFor(deps: Deps, query: TDayCountsQuery): Promise<TDayCounts> {
  const timeZone = deps.settings.current().timeZone;
  const days = await countAppointmentsByDay(deps.db, {
    from: startOfZonedDay(query.from, timeZone),
    to: startOfZonedDay(addDays(query.to, 1), timeZone),
    timeZone,
  });
  return { days };
}

/** The clinic's time zone, in which the web shows times and finds today. */
export function clinicTimeOf(deps: Deps): TClinicTime {
  return { timeZone: deps.settings.current().timeZone };
}

/**
 * Books an appointment. It is always `scheduled` and its provider is always the caller. The
 * patient must be active and the assigned staff active nurses and scribes (else 400 naming the
 * field); a clash is a 409 listing what it clashes with, also when a concurrent booking got
 * there first (the database refuses it). The assigned nurse and scribe are told, in the same
 * transaction.
 */
export async function createAppointment(deps: Deps, ctx: SignedInContext, input: TCreateAppointment): Promise<TAppointment> {
  const { providerId: _provider, status: _status, ...fields } = input;
  const now = deps.config.now();
  refuseBeforeToday(deps, fields.appointmentDate, now);
  const placement: TPlacement = {
    start: new Date(fields.appointmentDate),
    durationMinutes: fields.duration,
    patientId: fields.patientId,
    roomNumber: fields.roomNumber,
    assignedNurseId: fields.assignedNurseId,
    assignedScribeId: fields.assignedScribeId,
  };
  return withConflictRefusal(
    deps.db,
    () => placement,
    null,
    () =>
      inTransaction(deps, async (tx, raise) => {
        const patient = await writerOf(tx, ctx, deps.config.now()).patient(fields.patientId);
        await refuseBadReferences(tx, { patient, assignedNurseId: fields.assignedNurseId, assignedScribeId: fields.assignedScribeId });
        await refuseConflicts(tx, placement, null);
        const [row] = await tx
          .insert(appointments)
          .values({
            ...fields,
            appointmentDate: placement.start,
            providerId: ctx.user.id,
            status: APPOINTMENT_WORKFLOW.initial,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        const id = row!.id;
        await recordAudit(tx, ctx, { action: 'appointment.create', entityType: 'appointment', entityId: id, patientId: fields.patientId });
        const notice = noticeOf(deps, row!, patient!);
        for (const [userId, as] of staffOf(row!)) await noticeAssigned(tx, raise, userId, as, notice);
        raise({ type: 'appointment.changed', appointmentId: id, actorId: ctx.user.id });
        return (await readAppointment(tx, scopeOf(ctx, deps.config.now()), id))!.appointment;
      }),
  );
}

/**
 * Changes an appointment: a status move, a reschedule, or both.
 * - A move follows APPOINTMENT_WORKFLOW: no such move is a 409, a role outside it a 403. The
 *   server stamps checkedInAt/completedAt; a cancellation or no-show may carry a reason.
 * - Every other field is the booking, for those who may schedule (else 403). Time, duration,
 *   room and staff change only while the appointment is scheduled or checked in (else 409),
 *   and every such change is checked for clashes again, as a create is.
 * - A nurse may move any appointment of the clinic; she still sees its patient's name only
 *   when she is assigned to it (docs/decisions/appointments.md).
 * Fields sent unchanged need no right; nothing changed means nothing written.
 */
export async function updateAppointment(deps: Deps, ctx: SignedInContext, id: string, input: TUpdateAppointment): Promise<TAppointment> {
  const { id: sentId, updatedAt: version, patientId: sentPatientId, status, statusReason, ...rest } = input;
  if (sentId !== undefined && sentId !== id) throw invalid('id', 'Must be the id of the appointment in the path');
  const sent = bookingFieldsOf(rest);
  const now = deps.config.now();
  let placement: TPlacement | null = null;
  return withConflictRefusal(
    deps.db,
    () => placement,
    id,
    () =>
      inTransaction(deps, async (tx, raise) => {
        const current = await lockAppointment(tx, id);
        if (!current) throw notFound(NOT_FOUND);
        const clinic = { now, timeZone: deps.settings.current().timeZone };
        // A restricted patient's visit, outside the caller's reach: its time and status may move
        // (the schedule is everyone's), but its reason and notes, which she was shown as empty,
        // are not hers to change: sent back empty they are left as they are; sent filled, refused.
        if (!(await writerOf(tx, ctx, now).sees(current.patientId))) {
          if ((sent.reason ?? null) !== null || (sent.notes ?? null) !== null) throw new HttpError('record.restricted');
          delete sent.reason;
          delete sent.notes;
        }
        const { move, changes, changedNames, placementChanged } = planUpdate(ctx, clinic, current, { version, sentPatientId, status, statusReason, sent });
        if (!move && changedNames.length === 0) return (await readAppointment(tx, scopeOf(ctx, deps.config.now()), id))!.appointment;

        if (changes.appointmentDate) refuseBeforeToday(deps, changes.appointmentDate, now);
        await refuseBadReferences(tx, { assignedNurseId: changes.assignedNurseId ?? null, assignedScribeId: changes.assignedScribeId ?? null });
        const next = { ...bookingOf(current), ...changes };
        if (placementChanged) {
          placement = {
            start: new Date(next.appointmentDate),
            durationMinutes: next.duration,
            patientId: current.patientId,
            roomNumber: next.roomNumber,
            assignedNurseId: next.assignedNurseId,
            assignedScribeId: next.assignedScribeId,
          };
          await refuseConflicts(tx, placement, id);
        }

        const { appointmentDate: newStart, ...otherChanges } = changes;
        const [row] = await tx
          .update(appointments)
          .set({
            ...otherChanges,
            ...(newStart ? { appointmentDate: new Date(newStart) } : {}),
            ...(move ? { status: move.to, statusReason: move.takesReason ? (statusReason ?? null) : null, ...stampsOf(move, now, ctx) } : {}),
            updatedAt: now,
          })
          .where(eq(appointments.id, id))
          .returning();

        const about = { entityType: 'appointment', entityId: id, patientId: current.patientId } as const;
        await recordAudit(tx, ctx, [
          ...(move ? [{ action: `appointment.${move.to}` as const, ...about }] : []),
          ...(changedNames.length > 0 ? [{ action: placementChanged ? ('appointment.reschedule' as const) : ('appointment.update' as const), ...about }] : []),
        ]);
        if (move || placementChanged) await resolveOnMove(tx, raise, id, move?.to ?? null);
        if (placementChanged) await noticeStaffOfMove(deps, tx, raise, current, row!, changedNames);
        raise({ type: 'appointment.changed', appointmentId: id, actorId: ctx.user.id });
        return (await readAppointment(tx, scopeOf(ctx, deps.config.now()), id))!.appointment;
      }),
  );
}

/**
 * What an update asks of this appointment, checked before anything is written: the same patient
 * (400), the version if sent (409 stale), the move by the workflow (409/403) at a time its timing
 * allows (409), a reason only for a cancellation or no-show (400), booking fields only for those
 * who schedule (403), and a new time or place only while the visit has not ended (409).
 */
function planUpdate(
  ctx: SignedInContext,
  clinic: { now: Date; timeZone: string },
  current: TAppointmentRow,
  request: {
    version: string | undefined;
    sentPatientId: string | undefined;
    status: TAppointmentStatus | undefined;
    statusReason: string | null | undefined;
    sent: ReturnType<typeof bookingFieldsOf>;
  },
) {
  if (request.sentPatientId !== undefined && request.sentPatientId !== current.patientId) {
    throw invalid('patientId', 'An appointment cannot move to another patient');
  }
  if (request.version !== undefined && request.version !== current.updatedAt.toISOString()) {
    throw stale('This appointment was changed by someone else. Reload to see their changes, then edit again.');
  }
  const to = request.status !== undefined && request.status !== current.status ? request.status : null;
  const move = to ? decideMove(APPOINTMENT_WORKFLOW, ctx.user, current.status, to) : null;
  if (request.statusReason !== undefined && request.statusReason !== current.statusReason && !move?.takesReason) {
    throw invalid('statusReason', 'Only a cancellation or a no-show takes a reason');
  }
  const changes = changedBookingFields(current, request.sent);
  const changedNames = Object.keys(changes) as TAppointmentFieldName[];
  if (changedNames.length > 0 && !can(ctx.user, 'appointments.schedule')) throw forbidden();
  const placementChanged = changedNames.some((f) => (APPOINTMENT_PLACEMENT_FIELDS as readonly string[]).includes(f));
  if (placementChanged && !(mayReschedule(current.status) && mayReschedule(to ?? current.status))) {
    throw new HttpError('workflow.illegalMove', { message: 'Only a scheduled or checked-in appointment can be rescheduled' });
  }
  // Against the visit's time as this request leaves it: one rescheduled to now may be checked in with it.
  const visit = { appointmentDate: changes.appointmentDate ?? current.appointmentDate, duration: changes.duration ?? current.duration };
  const notNow = move ? visitTimingRefusal(move.timing, visit, clinic.now, clinic.timeZone) : null;
  if (notNow) throw new HttpError('appointment.notNow', { message: notNow });
  return { move, changes, changedNames, placementChanged };
}

/** What the server writes on a move: an appointment's moves stamp only instants (checkedInAt, completedAt). */
const stampsOf = (move: TMove<TAppointmentStatus, 'checkedInAt' | 'completedAt'>, now: Date, ctx: SignedInContext) =>
  serverSetFields(move, { now, actorId: ctx.user.id }) as Partial<Record<'checkedInAt' | 'completedAt', Date | null>>;

/** The schedule form's minimum date is today; the server holds the same line, in clinic time. */
function refuseBeforeToday(deps: Deps, appointmentDate: string, now: Date): void {
  const zone = deps.settings.current().timeZone;
  if (new Date(appointmentDate) < startOfZonedDay(zonedDate(now, zone), zone)) {
    throw invalid('appointmentDate', 'Must not be before today');
  }
}

/**
 * Refuses (400, naming each field) a patient who is not an active patient, when one is being
 * booked, and assigned staff who are not an active nurse and an active scribe.
 */
async function refuseBadReferences(
  q: Queryable,
  refs: { patient?: { isActive: boolean } | null; assignedNurseId: string | null; assignedScribeId: string | null },
) {
  const errors: TFieldError[] = refs.patient === undefined || refs.patient?.isActive ? [] : [{ path: 'patientId', message: 'Must be an active patient' }];
  const wanted: [string | null, 'assignedNurseId' | 'assignedScribeId', TStaffRole][] = [
    [refs.assignedNurseId, 'assignedNurseId', 'nurse'],
    [refs.assignedScribeId, 'assignedScribeId', 'scribe'],
  ];
  const found = await findUsers(
    q,
    wanted.flatMap(([userId]) => (userId ? [userId] : [])),
  );
  for (const [userId, path, role] of wanted) {
    const user = found.find((u) => u.id === userId);
    if (userId && !(user?.isActive && user.role === role)) errors.push({ path, message: `Must be an active ${role}` });
  }
  if (errors.length > 0) throw invalidFields(errors);
}

type TBooking = {
  appointmentDate: string;
  duration: number;
  appointmentType: string | null;
  reason: string | null;
  notes: string | null;
  roomNumber: string | null;
  assignedNurseId: string | null;
  assignedScribeId: string | null;
};

const bookingOf = (row: TAppointmentRow): TBooking => ({
  appointmentDate: row.appointmentDate.toISOString(),
  duration: row.duration,
  appointmentType: row.appointmentType,
  reason: row.reason,
  notes: row.notes,
  roomNumber: row.roomNumber,
  assignedNurseId: row.assignedNurseId,
  assignedScribeId: row.assignedScribeId,
});

function bookingFieldsOf(sent: Omit<TUpdateAppointment, 'id' | 'updatedAt' | 'patientId' | 'status' | 'statusReason'>): Partial<TBooking> {
  const { appointmentDate, duration, appointmentType, reason, notes, roomNumber, assignedNurseId, assignedScribeId } = sent;
  const fields = { appointmentDate, duration, appointmentType, reason, notes, roomNumber, assignedNurseId, assignedScribeId };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

function changedBookingFields(current: TAppointmentRow, sent: Partial<TBooking>): Partial<TBooking> {
  const now = bookingOf(current);
  return Object.fromEntries(Object.entries(sent).filter(([field, value]) => now[field as keyof TBooking] !== value));
}

/** The nurse and scribe of an appointment, each with the part they play. */
function staffOf(row: { assignedNurseId: string | null; assignedScribeId: string | null }): [string, TStaffRole][] {
  return [
    ...(row.assignedNurseId ? [[row.assignedNurseId, 'nurse'] as [string, TStaffRole]] : []),
    ...(row.assignedScribeId ? [[row.assignedScribeId, 'scribe'] as [string, TStaffRole]] : []),
  ];
}

function noticeOf(deps: Deps, row: TAppointmentRow, patient: { firstName: string; lastName: string }): TAppointmentNotice {
  return {
    appointmentId: row.id,
    patientName: `${patient.firstName} ${patient.lastName}`,
    start: row.appointmentDate,
    roomNumber: row.roomNumber,
    timeZone: deps.settings.current().timeZone,
  };
}

/**
 * After a reschedule: staff newly put on the appointment are told they are assigned; staff who
 * stay on it are told when its time or room changed, the new notice replacing the old; staff
 * taken off it have theirs resolved. Nobody is told twice for one change.
 */
async function noticeStaffOfMove(deps: Deps, tx: Queryable, raise: Raise, before: TAppointmentRow, after: TAppointmentRow, changed: TAppointmentFieldName[]) {
  const patient = (await findPatientForBooking(tx, after.patientId))!;
  const notice = noticeOf(deps, after, patient);
  const timeOrRoom = changed.some((f) => f === 'appointmentDate' || f === 'duration' || f === 'roomNumber');
  const had = new Set(staffOf(before).map(([userId, as]) => `${as}:${userId}`));
  const staying = new Set(staffOf(after).map(([userId]) => userId));
  const told = staffOf(after).filter(([userId, as]) => !had.has(`${as}:${userId}`) || timeOrRoom);
  const off = staffOf(before)
    .map(([userId]) => userId)
    .filter((userId) => !staying.has(userId));
  await resolveStaffNotices(tx, raise, after.id, [...off, ...told.map(([userId]) => userId)]);
  for (const [userId, as] of told) {
    if (!had.has(`${as}:${userId}`)) await noticeAssigned(tx, raise, userId, as, notice);
    else await noticeRescheduled(tx, raise, userId, as, notice);
  }
}
