import { describe, expect, it } from 'vitest';
import { ALL_AUDIT_ACTIONS, AUDIT_ENTITY_TYPES } from '#domain/audit';

describe("the audit trail's closed lists", () => {
  it('name each action and entity type once, in the area.verb shape the viewer filters on', () => {
    expect(new Set(ALL_AUDIT_ACTIONS).size).toBe(ALL_AUDIT_ACTIONS.length);
    expect(new Set(AUDIT_ENTITY_TYPES).size).toBe(AUDIT_ENTITY_TYPES.length);
    for (const action of ALL_AUDIT_ACTIONS) expect(action).toMatch(/^[a-z]+\.[a-z_.]+$/);
    // The column is varchar(100): every action fits.
    expect(Math.max(...ALL_AUDIT_ACTIONS.map((a) => a.length))).toBeLessThanOrEqual(100);
  });

  it('include every status move of appointments and notes', () => {
    expect(ALL_AUDIT_ACTIONS).toEqual(expect.arrayContaining(['appointment.completed', 'appointment.no_show', 'note.finalized', 'note.submitted_to_scribe']));
  });
});
