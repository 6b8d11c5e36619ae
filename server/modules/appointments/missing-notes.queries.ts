import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Queryable } from '../../db/database.ts';
import { rowId, rowsOf } from '../../db/typed-rows.ts';
import { isoText } from '../../db/instant-text.ts';

/**
 * The two follow-ups check-missing-notes sends, each claimed in the database before it is sent:
 * the claim sets the appointment's marker only where it is still unset, so two runs at the same
 * moment (or two clicks) claim each appointment once, and its notices go out once.
 */

const ZClaimed = z.object({
  id: rowId,
  patientId: rowId,
  patientName: z.string(),
  start: z.string(),
  roomNumber: z.string().nullable(),
  assignedNurseId: rowId.nullable(),
  assignedScribeId: rowId.nullable(),
});
export type TClaimed = z.infer<typeof ZClaimed>;

/**
 * A completed appointment whose assigned nurse has written no note for its patient since the
 * visit began (check-in, else the booked time).
 */
const NOTES_MISSING = sql`appointments.status = 'completed' and appointments.notes_reminder_sent_at is null
  and appointments.assigned_nurse_id is not null
  and not exists (
    select 1 from patient_notes note
    where note.patient_id = appointments.patient_id and note.author_id = appointments.assigned_nurse_id
      and note.created_at >= coalesce(appointments.checked_in_at, appointments.appointment_date))`;

/** An appointment whose time is over with nobody checked in: still scheduled after its end. */
const visitMissed = (now: Date) => sql`appointments.status = 'scheduled' and appointments.missed_notice_sent_at is null
  and appointments.checked_in_at is null and appointments.ends_at <= ${now.toISOString()}::timestamptz`;

async function claim(q: Queryable, due: SQL, order: SQL, marker: 'notes_reminder_sent_at' | 'missed_notice_sent_at', now: Date, limit: number) {
  const column = sql.raw(marker);
  // `due` is repeated on the update: a row another run claimed (or checked in) while this one
  // waited for its lock is looked at again, and left alone.
  return rowsOf(
    q,
    ZClaimed,
    sql`
    with due as (
      select appointments.id from appointments where ${due} order by ${order} limit ${limit}
    )
    update appointments set ${column} = ${now.toISOString()}::timestamptz
    from due where appointments.id = due.id and ${due}
    returning appointments.id, appointments.patient_id as "patientId",
      (select concat_ws(' ', p.first_name, p.last_name) from patients p where p.id = appointments.patient_id) as "patientName",
      ${isoText(sql`appointments.appointment_date`)} as start,
      appointments.room_number as "roomNumber", appointments.assigned_nurse_id as "assignedNurseId",
      appointments.assigned_scribe_id as "assignedScribeId"`,
  );
}

export const claimNotesMissing = (q: Queryable, now: Date, limit: number) =>
  claim(q, NOTES_MISSING, sql`appointments.completed_at, appointments.id`, 'notes_reminder_sent_at', now, limit);

export const claimVisitsMissed = (q: Queryable, now: Date, limit: number) =>
  claim(q, visitMissed(now), sql`appointments.ends_at, appointments.id`, 'missed_notice_sent_at', now, limit);

/** Whether anything is still due after a run that took a full batch. */
export async function anyStillDue(q: Queryable, now: Date): Promise<boolean> {
  const [row] = await rowsOf(
    q,
    z.object({ due: z.boolean() }),
    sql`select exists (select 1 from appointments where ${NOTES_MISSING})
    or exists (select 1 from appointments where ${visitMissed(now)}) as due`,
  );
  return row!.due;
}
