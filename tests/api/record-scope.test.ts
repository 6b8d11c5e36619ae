import { and, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTE_STATUSES } from '#domain/notes';
import { noteVisibleTo, seesAppointmentPatientName, seesPatient } from '#domain/record-scope';
import { ROLES } from '#domain/roles';
import { appointments, patientNotes, patients } from '../../server/db/schema/clinical.ts';
import { breakGlassGrants, patientCareTeam } from '../../server/db/schema/restricted-records.ts';
import { scopeOf } from '../../server/scope/read-scope.ts';
import { seesPatientName } from '../../server/scope/appointment-scope.ts';
import { visibleNotes } from '../../server/scope/note-scope.ts';
import { createUser, insertPatient } from '../helpers/factories.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

// The server's `where` clauses and the web's predicates come from the same table in
// domain/record-scope.ts; on a seeded mix of rows they must pick exactly the same ones.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('note visibility as a where clause', () => {
  it('selects, for every role, exactly the notes noteVisibleTo allows', async () => {
    const viewers = await Promise.all(ROLES.map((role) => createUser(t.db, { role })));
    const otherNurse = await createUser(t.db, { role: 'nurse' });
    const otherScribe = await createUser(t.db, { role: 'scribe' });
    const patient = await insertPatient(t.db);
    const authors = [...viewers, otherNurse];
    const scribes = [null, otherScribe, ...viewers];
    const rows = await t.db
      .insert(patientNotes)
      .values(
        NOTE_STATUSES.flatMap((status) =>
          authors.flatMap((author, i) => ({
            patientId: patient.id,
            authorId: author.id,
            noteType: 'Progress Note',
            content: 'x',
            status,
            scribeId: scribes[i % scribes.length]?.id ?? null,
          })),
        ),
      )
      .returning();
    const ids = rows.map((r) => r.id);

    for (const viewer of viewers) {
      const fromSql = await t.db
        .select({ id: patientNotes.id })
        .from(patientNotes)
        .where(and(inArray(patientNotes.id, ids), visibleNotes(viewer)));
      const fromDomain = rows.filter((r) => noteVisibleTo(viewer, r)).map((r) => r.id);
      expect(fromSql.map((r) => r.id).sort(), viewer.role).toEqual(fromDomain.sort());
      if (viewer.role === 'supplier') expect(fromSql).toEqual([]);
      else expect(fromSql.length, viewer.role).toBeGreaterThan(0);
    }
  });
});

describe("who receives an appointment's patient name, as a condition", () => {
  it('matches seesAppointmentPatientName for every role, assigned or not', async () => {
    const viewers = await Promise.all(ROLES.map((role) => createUser(t.db, { role })));
    const provider = viewers.find((v) => v.role === 'scheduler')!;
    const patient = await insertPatient(t.db);
    const staff = [null, ...viewers];
    // One after another (30 minutes each): one patient and the same staff cannot be double-booked.
    const rows = await t.db
      .insert(appointments)
      .values(
        staff.flatMap((nurse, i) =>
          staff.map((scribe, j) => ({
            patientId: patient.id,
            providerId: provider.id,
            appointmentDate: new Date(Date.UTC(2030, 0, 1) + (i * staff.length + j) * 30 * 60_000),
            assignedNurseId: nurse?.id ?? null,
            assignedScribeId: scribe?.id ?? null,
          })),
        ),
      )
      .returning();
    const ids = rows.map((r) => r.id);

    for (const viewer of viewers) {
      const named = await t.db
        .select({ id: appointments.id })
        .from(appointments)
        .where(and(inArray(appointments.id, ids), seesPatientName(viewer)));
      const expected = rows.filter((r) => seesAppointmentPatientName(viewer, r)).map((r) => r.id);
      expect(named.map((r) => r.id).sort(), viewer.role).toEqual(expected.sort());
    }
  });
});

describe('who sees a restricted patient, as a condition (issue 33)', () => {
  it('selects, for readers on and off care teams and grants, exactly the patients seesPatient allows', async () => {
    const now = new Date();
    const [teamMember, granted, expired, stranger] = await Promise.all(
      ['nurse', 'nurse', 'scribe', 'admin'].map((role) => createUser(t.db, { role: role as 'nurse' })),
    );
    const plain = await insertPatient(t.db);
    const restricted = await insertPatient(t.db, { restrictedAt: now });
    const otherRestricted = await insertPatient(t.db, { restrictedAt: now });
    await t.db.insert(patientCareTeam).values({ patientId: restricted.id, userId: teamMember!.id });
    const grants = [
      { patientId: restricted.id, userId: granted!.id, startedAt: new Date(now.getTime() - 60_000), expiresAt: new Date(now.getTime() + 60_000) },
      { patientId: restricted.id, userId: expired!.id, startedAt: new Date(now.getTime() - 120_000), expiresAt: new Date(now.getTime() - 60_000) },
    ];
    await t.db.insert(breakGlassGrants).values(grants.map((g) => ({ ...g, reason: 'emergency_care' as const, justification: 'x'.repeat(20) })));
    const patientsShown = [plain, restricted, otherRestricted];
    const asDomain = (p: typeof plain) => ({
      restricted: p.restrictedAt !== null,
      careTeam: p.id === restricted.id ? [teamMember!.id] : [],
      grants: grants
        .filter((g) => g.patientId === p.id)
        .map((g) => ({ userId: g.userId, startedAt: g.startedAt.toISOString(), expiresAt: g.expiresAt.toISOString() })),
    });
    for (const viewer of [teamMember!, granted!, expired!, stranger!]) {
      for (const reach of [true, false]) {
        const scope = scopeOf({ user: viewer, restrictedReach: reach }, now);
        const fromSql = await t.db
          .select({ id: patients.id })
          .from(patients)
          .where(
            and(
              inArray(
                patients.id,
                patientsShown.map((p) => p.id),
              ),
              scope.patientSeen(sql`${patients.id}`),
            ),
          );
        const fromRow = await t.db
          .select({ id: patients.id })
          .from(patients)
          .where(
            and(
              inArray(
                patients.id,
                patientsShown.map((p) => p.id),
              ),
              scope.patientRowSeen(sql`patients`),
            ),
          );
        // Without reach (her session found no team and no grant) the rule is the plain one: no restricted patient.
        const fromDomain = patientsShown.filter((p) => (reach ? seesPatient(viewer, asDomain(p), now) : p.restrictedAt === null)).map((p) => p.id);
        expect(fromSql.map((r) => r.id).sort(), `${viewer.role} reach ${reach}`).toEqual(fromDomain.sort());
        expect(fromRow.map((r) => r.id).sort(), `${viewer.role} reach ${reach}, by row`).toEqual(fromDomain.sort());
      }
    }
  });
});
