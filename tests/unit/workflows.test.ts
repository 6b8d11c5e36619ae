import { describe, expect, it } from 'vitest';
import { ROLES, type TRole } from '#domain/roles';
import {
  APPOINTMENT_WORKFLOW,
  LAB_ORDER_WORKFLOW,
  moveDecision,
  movesFrom,
  NOTE_WORKFLOW,
  serverSetFields,
  SUPPLY_ORDER_WORKFLOW,
  type TWorkflow,
} from '#domain/workflows';

/**
 * The moves each machine allows, written out independently of domain/workflows.ts: each line
 * is `from > to: roles`, a role marked `(own)` only on a record she owns. Every (role, from, to)
 * triple not listed must be refused.
 */
const EXPECTED: [TWorkflow<string, string>, string[]][] = [
  [
    APPOINTMENT_WORKFLOW as TWorkflow<string, string>,
    [
      'scheduled > checked_in: admin scheduler nurse',
      'checked_in > in_progress: admin scheduler nurse',
      'in_progress > completed: admin scheduler nurse',
      'scheduled > cancelled: admin scheduler',
      'checked_in > cancelled: admin scheduler',
      'scheduled > no_show: admin scheduler',
      'checked_in > no_show: admin scheduler',
    ],
  ],
  [
    NOTE_WORKFLOW as TWorkflow<string, string>,
    [
      'draft > submitted_to_scribe: admin nurse(own)',
      'submitted_to_scribe > reviewed_by_scribe: scribe',
      'reviewed_by_scribe > finalized: admin scheduler scribe',
      'submitted_to_scribe > draft: admin scribe',
      'reviewed_by_scribe > draft: admin scribe',
    ],
  ],
  [
    LAB_ORDER_WORKFLOW as TWorkflow<string, string>,
    [
      'ordered > pending: admin nurse',
      'pending > received: admin nurse',
      'ordered > received: admin nurse',
      'ordered > cancelled: admin nurse',
      'pending > cancelled: admin nurse',
    ],
  ],
  [
    SUPPLY_ORDER_WORKFLOW as TWorkflow<string, string>,
    [
      'ordered > processing: admin supplier(own)',
      'processing > ready_for_pickup: admin supplier(own)',
      'ready_for_pickup > completed: admin nurse scheduler',
      'ordered > cancelled: admin nurse scheduler',
    ],
  ],
];

function expectedDecision(lines: string[], role: TRole, from: string, to: string, owns: boolean): 'allowed' | 'forbidden' | 'illegal' {
  const line = lines.find((l) => l.startsWith(`${from} > ${to}:`));
  if (!line) return 'illegal';
  const roles = line.split(':')[1]!.trim().split(' ');
  return roles.includes(role) || (owns && roles.includes(`${role}(own)`)) ? 'allowed' : 'forbidden';
}

const ME = '00000000-0000-4000-8000-00000000000a';
/** A record of each machine owned by ME, and one owned by someone else. */
const recordOf = (workflow: TWorkflow<string, string>, owner: string) => (workflow.owner ? { [workflow.owner]: owner } : {});

describe.each(EXPECTED.map(([workflow, lines]) => ({ name: workflow.name, workflow, lines })))('the $name machine', ({ workflow, lines }) => {
  const triples = ROLES.flatMap((role) => workflow.statuses.flatMap((from) => workflow.statuses.map((to) => [role, from, to] as const)));

  it.each(triples)('%s: %s -> %s follows the table, on her own record and on another', (role, from, to) => {
    const user = { id: ME, role };
    expect(moveDecision(workflow, user, from, to, recordOf(workflow, ME))).toBe(expectedDecision(lines, role, from, to, true));
    expect(moveDecision(workflow, user, from, to, recordOf(workflow, 'someone-else'))).toBe(expectedDecision(lines, role, from, to, false));
  });

  it('offers a user exactly the moves the table allows them', () => {
    for (const role of ROLES) {
      for (const from of workflow.statuses) {
        for (const owns of [true, false]) {
          const offered = movesFrom(workflow, { id: ME, role }, from, recordOf(workflow, owns ? ME : 'someone-else'))
            .map((m) => m.to)
            .sort();
          const allowed = workflow.statuses.filter((to) => expectedDecision(lines, role, from, to, owns) === 'allowed').sort();
          expect(offered, `${role} from ${from}${owns ? ' on her own' : ''}`).toEqual(allowed);
        }
      }
    }
  });

  it('starts in its initial status and leaves no move undescribed', () => {
    expect(workflow.statuses).toContain(workflow.initial);
    expect(workflow.moves).toHaveLength(lines.length);
  });
});

describe('fields the server sets on a move', () => {
  const at = { now: new Date('2026-05-01T10:00:00Z'), actorId: '00000000-0000-4000-8000-000000000001' };
  const setBy = (workflow: TWorkflow<string, string>, from: string, to: string) =>
    serverSetFields(
      workflow.moves.find((m) => m.from === from && m.to === to)!,
      at,
    );

  it('stamps check-in and completion times on appointments', () => {
    expect(setBy(APPOINTMENT_WORKFLOW as TWorkflow<string, string>, 'scheduled', 'checked_in')).toEqual({ checkedInAt: at.now });
    expect(setBy(APPOINTMENT_WORKFLOW as TWorkflow<string, string>, 'checked_in', 'in_progress')).toEqual({});
    expect(setBy(APPOINTMENT_WORKFLOW as TWorkflow<string, string>, 'in_progress', 'completed')).toEqual({ completedAt: at.now });
  });

  it('records the reviewing scribe and the review and finalize times on notes', () => {
    expect(setBy(NOTE_WORKFLOW as TWorkflow<string, string>, 'submitted_to_scribe', 'reviewed_by_scribe')).toEqual({
      scribeId: at.actorId,
      reviewedAt: at.now,
    });
    expect(setBy(NOTE_WORKFLOW as TWorkflow<string, string>, 'reviewed_by_scribe', 'finalized')).toEqual({ finalizedAt: at.now });
  });

  it('clears the review stamp when a reviewed note goes back to draft (issue 29), and nothing else', () => {
    expect(setBy(NOTE_WORKFLOW as TWorkflow<string, string>, 'reviewed_by_scribe', 'draft')).toEqual({ reviewedAt: null });
    expect(setBy(NOTE_WORKFLOW as TWorkflow<string, string>, 'submitted_to_scribe', 'draft')).toEqual({});
  });

  it('never produces submitted_to_admin (reserved)', () => {
    expect(NOTE_WORKFLOW.moves.some((m) => m.to === 'submitted_to_admin')).toBe(false);
  });

  it('records who picked up a supply order, and when', () => {
    expect(setBy(SUPPLY_ORDER_WORKFLOW as TWorkflow<string, string>, 'ready_for_pickup', 'completed')).toEqual({
      pickedUpAt: at.now,
      pickedUpById: at.actorId,
    });
    expect(setBy(LAB_ORDER_WORKFLOW as TWorkflow<string, string>, 'pending', 'received')).toEqual({ receivedAt: at.now });
  });
});
