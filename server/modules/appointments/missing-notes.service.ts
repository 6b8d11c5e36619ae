import type { TMissingNotesResult } from '#domain/appointments';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { noticeNotesMissing, noticeVisitMissed, type TAppointmentNotice } from './appointments.notices.ts';
import { activeUserIds, findUsers } from './appointments.queries.ts';
import { anyStillDue, claimNotesMissing, claimVisitsMissed, type TClaimed } from './missing-notes.queries.ts';

/** How many appointments of each kind one run handles: one request stays short after a long gap; the next run continues. */
export const MISSING_NOTES_BATCH = 200;

/**
 * 'Check Missing Notes' (docs/decisions/appointments.md):
 * - a completed appointment whose assigned nurse has written no note for its patient since the
 *   visit began (check-in, else the booked time): `notes_pending` to that nurse, and to the
 *   scribe if one is assigned;
 * - an appointment whose end has passed while it is still scheduled (nobody checked in):
 *   `visitation_expired` to every active scheduler.
 * Each appointment is claimed once (a marker set in the database), so notices are never sent
 * twice however often, or however concurrently, the check runs. Deactivated staff are not told.
 */
export async function checkMissingNotes(deps: Deps, ctx: SignedInContext): Promise<TMissingNotesResult> {
  const now = deps.config.now();
  return inTransaction(deps, async (tx, raise) => {
    const notesMissing = await claimNotesMissing(tx, now, MISSING_NOTES_BATCH);
    const visitsMissed = await claimVisitsMissed(tx, now, MISSING_NOTES_BATCH);
    const notice = (a: TClaimed): TAppointmentNotice => ({
      appointmentId: a.id,
      patientName: a.patientName,
      start: new Date(a.start),
      roomNumber: a.roomNumber,
      timeZone: deps.settings.current().timeZone,
    });

    let sent = 0;
    const staff = new Set(notesMissing.flatMap((a) => [a.assignedNurseId, a.assignedScribeId].filter((id): id is string => id !== null)));
    const active = new Set((await findUsers(tx, [...staff])).filter((u) => u.isActive).map((u) => u.id));
    for (const a of notesMissing) {
      for (const userId of [a.assignedNurseId, a.assignedScribeId]) {
        if (userId && active.has(userId)) {
          await noticeNotesMissing(tx, raise, userId, notice(a));
          sent += 1;
        }
      }
    }
    const schedulers = visitsMissed.length > 0 ? await activeUserIds(tx, 'scheduler') : [];
    for (const a of visitsMissed) {
      for (const userId of schedulers) {
        await noticeVisitMissed(tx, raise, userId, notice(a));
        sent += 1;
      }
    }

    const fullBatch = notesMissing.length === MISSING_NOTES_BATCH || visitsMissed.length === MISSING_NOTES_BATCH;
    const more = fullBatch && (await anyStillDue(tx, now));
    const patientIds = [...new Set([...notesMissing, ...visitsMissed].map((a) => a.patientId))];
    await recordAudit(tx, ctx, { action: 'appointment.check_missing_notes', entityType: 'appointment', ...(patientIds.length > 0 ? { patientIds } : {}) });
    return { notesPending: notesMissing.length, visitationExpired: visitsMissed.length, notificationsSent: sent, more };
  });
}
