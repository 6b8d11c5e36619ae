import { describe, expect, it } from 'vitest';
import { NOTE_STATUSES } from '#domain/notes';
import { mayChangePatientField, noteVisibleTo, patientLabel, seesAppointmentPatientName } from '#domain/record-scope';
import { ROLES, type TRole } from '#domain/roles';

const ME = '00000000-0000-4000-8000-00000000000a';
const OTHER = '00000000-0000-4000-8000-00000000000b';

describe('which notes a role sees (spec section 4)', () => {
  const visibleStatuses = (role: TRole, note: { authorId: string; scribeId: string | null }) =>
    NOTE_STATUSES.filter((status) => noteVisibleTo({ id: ME, role }, { ...note, status }));

  it("a nurse: her own notes in any status, and anyone's drafts", () => {
    expect(visibleStatuses('nurse', { authorId: ME, scribeId: null })).toEqual([...NOTE_STATUSES]);
    expect(visibleStatuses('nurse', { authorId: OTHER, scribeId: null })).toEqual(['draft']);
  });

  it('a scribe: notes submitted or reviewed, and those she scribed', () => {
    expect(visibleStatuses('scribe', { authorId: OTHER, scribeId: null })).toEqual(['submitted_to_scribe', 'reviewed_by_scribe']);
    expect(visibleStatuses('scribe', { authorId: OTHER, scribeId: ME })).toEqual([...NOTE_STATUSES]);
  });

  it.each(['admin', 'scheduler'] as const)('%s: finalized and submitted_to_admin notes, and the reviewed ones they finalize', (role) => {
    expect(visibleStatuses(role, { authorId: OTHER, scribeId: ME })).toEqual(['reviewed_by_scribe', 'finalized', 'submitted_to_admin']);
  });

  it('an admin also sees the notes she wrote, in any status', () => {
    expect(visibleStatuses('admin', { authorId: ME, scribeId: null })).toEqual([...NOTE_STATUSES]);
    expect(visibleStatuses('scheduler', { authorId: ME, scribeId: null })).toEqual(['reviewed_by_scribe', 'finalized', 'submitted_to_admin']);
  });

  it('a supplier: none', () => {
    expect(visibleStatuses('supplier', { authorId: ME, scribeId: ME })).toEqual([]);
  });
});

describe("who receives an appointment's patient name (spec section 6)", () => {
  it.each(ROLES)('%s', (role) => {
    const unassigned = seesAppointmentPatientName({ id: ME, role }, { assignedNurseId: OTHER, assignedScribeId: null });
    const assignedNurse = seesAppointmentPatientName({ id: ME, role }, { assignedNurseId: ME, assignedScribeId: OTHER });
    const assignedScribe = seesAppointmentPatientName({ id: ME, role }, { assignedNurseId: null, assignedScribeId: ME });
    const always = role === 'admin' || role === 'scheduler';
    expect(unassigned).toBe(always);
    // Assignment is what counts for nurse and scribe; it is checked by id, whatever the role.
    expect(assignedNurse).toBe(true);
    expect(assignedScribe).toBe(true);
  });

  it('everyone else sees "Patient #" and the last four characters of the id', () => {
    expect(patientLabel('2f0c7a8e-1b2c-4d5e-8f90-1234567890ab')).toBe('Patient #90ab');
  });
});

describe('field rules on a patient record', () => {
  it.each(ROLES)('%s may change isActive only with patients.deactivate', (role) => {
    expect(mayChangePatientField({ role }, 'isActive')).toBe(role === 'admin' || role === 'scheduler');
    expect(mayChangePatientField({ role }, 'phone')).toBe(true);
  });
});
