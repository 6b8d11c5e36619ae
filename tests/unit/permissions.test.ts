import { describe, expect, it } from 'vitest';
import { patientRoomAccess } from '#domain/chat';
import { can, CAPABILITIES } from '#domain/permissions';
import { ROLES } from '#domain/roles';

const holders = (capability: keyof typeof CAPABILITIES) => ROLES.filter((role) => can({ role }, capability));

describe('the capability table mirrors spec section 6', () => {
  it.each([
    ['admin.panel', ['admin', 'scheduler']],
    ['appointments.schedule', ['admin', 'scheduler']],
    ['appointments.seeStaffNames', ['admin', 'scheduler']],
    ['notes.create', ['admin', 'nurse']],
    ['notes.writeVisitNotes', ['nurse']],
    ['notes.addScribe', ['scheduler']],
    ['chat.manageRooms', ['admin', 'scheduler']],
    ['chat.use', ['admin', 'scheduler', 'nurse', 'scribe', 'supplier']],
    ['staff.list', ['admin', 'scheduler']],
    ['users.readDirectory', ['admin', 'scheduler']],
    ['users.manage', ['admin']],
  ] as const)('%s: %j', (capability, roles) => {
    expect(holders(capability)).toEqual(roles);
  });

  it('patient records follow minimum necessary: supplier none, scribe read-only', () => {
    expect(holders('patients.read')).toEqual(['admin', 'scheduler', 'nurse', 'scribe']);
    expect(holders('patients.write')).toEqual(['admin', 'scheduler', 'nurse']);
    expect(holders('patients.deactivate')).toEqual(['admin', 'scheduler']);
  });

  it('nobody signed out can do anything', () => {
    for (const capability of Object.keys(CAPABILITIES) as (keyof typeof CAPABILITIES)[]) {
      expect(can(null, capability)).toBe(false);
    }
  });
});

describe("who may be put in a patient's chat room", () => {
  it('is staff who read patient records; others only where the clinic allows it, and then with a warning', () => {
    for (const role of ['admin', 'scheduler', 'nurse', 'scribe'] as const) {
      expect(patientRoomAccess(role, { nonClinicalInPatientRooms: false })).toBe('member');
    }
    expect(patientRoomAccess('supplier', { nonClinicalInPatientRooms: false })).toBe('barred');
    expect(patientRoomAccess('supplier', { nonClinicalInPatientRooms: true })).toBe('warned');
  });
});
