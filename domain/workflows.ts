import { APPOINTMENT_STATUSES, type TAppointmentStatus } from './appointments.ts';
import { CHART_ENTRY_STATES, type TChartEntryState } from './chart-entry-states.ts';
import { NOTE_STATUSES, type TNoteStatus } from './notes.ts';
import { LAB_ORDER_STATUSES, SUPPLY_ORDER_STATUSES, type TLabOrderStatus, type TSupplyOrderStatus } from './orders.ts';
import { PRESCRIPTION_STATUSES, type TPrescriptionStatus } from './prescription-statuses.ts';
import { rolesWith } from './permissions.ts';
import type { TRole } from './roles.ts';
import type { TVisitTiming } from './visit-timing.ts';

/**
 * The state machines of the product, each written once: the moves allowed, the roles that may
 * make each one, and the fields the server sets on the move (never the client). The server
 * enforces them (an unknown move is a 409, a role outside a move a 403); the web uses the same
 * table to offer only the buttons a user may press. Decisions: docs/decisions/workflows.md.
 */

/**
 * What the server writes on a move: the current time, the id of the user making it, or nothing
 * (a stamp the move undoes: a note back to draft is no longer reviewed).
 */
export type TSetValue = 'now' | 'actor' | 'clear';

export interface TMove<S extends string, F extends string> {
  from: S;
  to: S;
  roles: readonly TRole[];
  /** The button's text. */
  label: string;
  sets: Partial<Record<F, TSetValue>>;
  /** The move may carry a short reason (cancellation, no-show). */
  takesReason?: boolean;
  /**
   * Roles of `roles` that may make the move only on a record they own (the workflow's `owner`
   * field is their id): a nurse submits her own draft, not a colleague's.
   */
  ownOnly?: readonly TRole[];
  /** When, against the visit's own time, the move may be made (domain/visit-timing.ts). */
  timing?: TVisitTiming;
  /** A reason must come with the move (a cancelled lab order says why). */
  reasonRequired?: boolean;
  /**
   * The move is made by a request of its own, never by a bare status change, and a bare status
   * change is refused with this hint: a lab order is 'received' when its results are entered
   * (PUT /api/lab-orders/{id}/results), a supply order 'completed' when its pickup is recorded.
   */
  via?: { request: string; hint: string };
}

export interface TWorkflow<S extends string, F extends string> {
  name: string;
  statuses: readonly S[];
  initial: S;
  moves: readonly TMove<S, F>[];
  /** The record's field naming the user who owns it, for moves with `ownOnly`. */
  owner?: string;
}

/** Who is moving: an own-only move needs her id; a decision without a record refuses it. */
type TMover = { id?: string; role: TRole };
type TMoved = Record<string, unknown>;

// Who makes each kind of move is a capability of domain/permissions.ts: one table of who may do what.
const ALL_STAFF_WHO_SEE_PATIENTS = rolesWith('appointments.runVisit');
const FRONT_DESK = rolesWith('appointments.cancel');

/** Spec section 4 (Appointment), with cancel and no-show as issue 16 settles them. */
export const APPOINTMENT_WORKFLOW: TWorkflow<TAppointmentStatus, 'checkedInAt' | 'completedAt' | 'cancelledAt'> = {
  name: 'appointment',
  statuses: APPOINTMENT_STATUSES,
  initial: 'scheduled',
  moves: [
    { from: 'scheduled', to: 'checked_in', roles: ALL_STAFF_WHO_SEE_PATIENTS, label: 'Check In', sets: { checkedInAt: 'now' }, timing: 'onVisitDay' },
    { from: 'checked_in', to: 'in_progress', roles: ALL_STAFF_WHO_SEE_PATIENTS, label: 'Start Visit', sets: {}, timing: 'onVisitDay' },
    { from: 'in_progress', to: 'completed', roles: ALL_STAFF_WHO_SEE_PATIENTS, label: 'Complete', sets: { completedAt: 'now' }, timing: 'fromVisitStart' },
    // The cancellation's time is kept: how much notice the clinic had (Reports, No-shows).
    { from: 'scheduled', to: 'cancelled', roles: FRONT_DESK, label: 'Cancel', sets: { cancelledAt: 'now' }, takesReason: true },
    { from: 'checked_in', to: 'cancelled', roles: FRONT_DESK, label: 'Cancel', sets: { cancelledAt: 'now' }, takesReason: true },
    { from: 'scheduled', to: 'no_show', roles: FRONT_DESK, label: 'No-show', sets: {}, takesReason: true, timing: 'fromVisitStart' },
    { from: 'checked_in', to: 'no_show', roles: FRONT_DESK, label: 'No-show', sets: {}, takesReason: true, timing: 'fromVisitStart' },
  ],
};

/**
 * Spec sections 4 and 6 (Patient note). submitted_to_admin is reserved: no move produces it
 * (the spec shows it in the illustration and counts only).
 */
export const NOTE_WORKFLOW: TWorkflow<TNoteStatus, 'scribeId' | 'reviewedAt' | 'finalizedAt'> = {
  name: 'note',
  statuses: NOTE_STATUSES,
  initial: 'draft',
  owner: 'authorId',
  moves: [
    // A nurse sees every draft (spec section 4) but submits only her own; an admin any.
    { from: 'draft', to: 'submitted_to_scribe', roles: ['nurse', 'admin'], ownOnly: ['nurse'], label: 'Submit to Scribe', sets: {} },
    { from: 'submitted_to_scribe', to: 'reviewed_by_scribe', roles: ['scribe'], label: 'Mark as Reviewed', sets: { scribeId: 'actor', reviewedAt: 'now' } },
    // Admin or scheduler from the form, scribe or admin from the Reviewed tab.
    { from: 'reviewed_by_scribe', to: 'finalized', roles: ['admin', 'scheduler', 'scribe'], label: 'Finalize Note', sets: { finalizedAt: 'now' } },
    // 'Save Draft' while the note is not finalized, by those who edit notes under review.
    { from: 'submitted_to_scribe', to: 'draft', roles: ['scribe', 'admin'], label: 'Save Draft', sets: {} },
    // Undoes the review: its stamp goes (the history keeps it), so a draft never reads 'Reviewed by'.
    { from: 'reviewed_by_scribe', to: 'draft', roles: ['scribe', 'admin'], label: 'Save Draft', sets: { reviewedAt: 'clear' } },
  ],
};

const LAB_TRACKERS = rolesWith('labs.track');
const LAB_REPORTERS = rolesWith('labs.enterResults');
const BY_RESULTS = { request: 'PUT /api/lab-orders/{id}/results', hint: 'Enter its results to mark it received' };

/**
 * The spec gives only the statuses; the moves are ours (issue 30; docs/decisions/workflows.md):
 * pending is 'specimen collected or sent to the lab', received is 'results in', and an order
 * nobody will collect is cancelled with a reason. Review is its own step after received.
 */
export const LAB_ORDER_WORKFLOW: TWorkflow<TLabOrderStatus, 'receivedAt'> = {
  name: 'lab order',
  statuses: LAB_ORDER_STATUSES,
  initial: 'ordered',
  moves: [
    { from: 'ordered', to: 'pending', roles: LAB_TRACKERS, label: 'Mark Collected', sets: {} },
    { from: 'pending', to: 'received', roles: LAB_REPORTERS, label: 'Enter Results', sets: { receivedAt: 'now' }, via: BY_RESULTS },
    // Results can arrive for an order nobody marked as collected.
    { from: 'ordered', to: 'received', roles: LAB_REPORTERS, label: 'Enter Results', sets: { receivedAt: 'now' }, via: BY_RESULTS },
    { from: 'ordered', to: 'cancelled', roles: LAB_TRACKERS, label: 'Cancel Order', sets: {}, takesReason: true, reasonRequired: true },
    { from: 'pending', to: 'cancelled', roles: LAB_TRACKERS, label: 'Cancel Order', sets: {}, takesReason: true, reasonRequired: true },
  ],
};

const SUPPLY_ORDERERS = rolesWith('supplies.order');
const SUPPLY_FULFILLERS = rolesWith('supplies.fulfil');

/**
 * The spec gives only the statuses; the moves are ours (issue 31; docs/decisions/supplies.md).
 * The supplier the order was placed with fills it (an admin may, for a supplier who phones);
 * the clinic's staff pick it up, recording what came (POST /api/supply-orders/{id}/pickup, which
 * adds it to stock); an order is cancelled, with its reason, only before processing starts.
 */
export const SUPPLY_ORDER_WORKFLOW: TWorkflow<TSupplyOrderStatus, 'processingAt' | 'readyAt' | 'pickedUpAt' | 'pickedUpById'> = {
  name: 'supply order',
  statuses: SUPPLY_ORDER_STATUSES,
  initial: 'ordered',
  owner: 'supplierId',
  moves: [
    { from: 'ordered', to: 'processing', roles: SUPPLY_FULFILLERS, ownOnly: ['supplier'], label: 'Start Processing', sets: { processingAt: 'now' } },
    { from: 'processing', to: 'ready_for_pickup', roles: SUPPLY_FULFILLERS, ownOnly: ['supplier'], label: 'Ready for Pickup', sets: { readyAt: 'now' } },
    {
      from: 'ready_for_pickup',
      to: 'completed',
      roles: SUPPLY_ORDERERS,
      label: 'Confirm Pickup',
      sets: { pickedUpAt: 'now', pickedUpById: 'actor' },
      via: { request: 'POST /api/supply-orders/{id}/pickup', hint: 'Confirm the pickup to complete it' },
    },
    { from: 'ordered', to: 'cancelled', roles: SUPPLY_ORDERERS, label: 'Cancel Order', sets: {}, takesReason: true, reasonRequired: true },
  ],
};

const PREPARERS = rolesWith('prescriptions.prepare');
const PRESCRIBERS = rolesWith('prescriptions.sign');
const PRESCRIPTION_KEEPERS = rolesWith('prescriptions.manage');
const SIGN = { request: 'POST /api/prescriptions/{id}/sign', hint: 'Sign it: the checks run again, and a high alert needs its reason' };
const SEND = { request: 'POST /api/prescriptions/{id}/print', hint: 'Print it to make it active' };

/**
 * Issue 52 (docs/decisions/prescriptions.md). Signing is a request of its own (the prescriber's
 * rights, the checks again, overrides, a fresh proof for a controlled substance), and so is
 * sending (the print driver, a pharmacy network's later); a signed prescription is never edited,
 * only replaced. Ending one needs its reason, but a course completed.
 */
export const PRESCRIPTION_WORKFLOW: TWorkflow<TPrescriptionStatus, 'signedAt' | 'signedById' | 'sentAt' | 'endedAt' | 'endedById'> = {
  name: 'prescription',
  statuses: PRESCRIPTION_STATUSES,
  initial: 'draft',
  owner: 'preparedById',
  moves: [
    { from: 'draft', to: 'signed', roles: PRESCRIBERS, label: 'Sign', sets: { signedAt: 'now', signedById: 'actor' }, via: SIGN },
    {
      from: 'draft',
      to: 'cancelled',
      roles: PREPARERS,
      ownOnly: ['scribe'],
      label: 'Discard Draft',
      sets: { endedAt: 'now', endedById: 'actor' },
      takesReason: true,
    },
    { from: 'signed', to: 'active', roles: PRESCRIPTION_KEEPERS, label: 'Print', sets: { sentAt: 'now' }, via: SEND },
    ...(['signed', 'active'] as const).flatMap((from) => [
      {
        from,
        to: 'discontinued' as const,
        roles: PRESCRIPTION_KEEPERS,
        label: 'Discontinue',
        sets: { endedAt: 'now' as const, endedById: 'actor' as const },
        takesReason: true,
        reasonRequired: true,
      },
      {
        from,
        to: 'entered_in_error' as const,
        roles: PRESCRIPTION_KEEPERS,
        label: 'Entered in Error',
        sets: { endedAt: 'now' as const, endedById: 'actor' as const },
        takesReason: true,
        reasonRequired: true,
      },
    ]),
    { from: 'active', to: 'completed', roles: PRESCRIPTION_KEEPERS, label: 'Mark Completed', sets: { endedAt: 'now', endedById: 'actor' }, takesReason: true },
  ],
};

export function findMove<S extends string, F extends string>(workflow: TWorkflow<S, F>, from: S, to: S): TMove<S, F> | undefined {
  return workflow.moves.find((m) => m.from === from && m.to === to);
}

/** Whether the move is this user's to make on this record: her role, and her own record where the move asks. */
function mayMake<S extends string, F extends string>(workflow: TWorkflow<S, F>, move: TMove<S, F>, user: TMover, record: TMoved | undefined): boolean {
  if (!move.roles.includes(user.role)) return false;
  if (!move.ownOnly?.includes(user.role)) return true;
  return workflow.owner !== undefined && user.id !== undefined && record?.[workflow.owner] === user.id;
}

/**
 * Whether a user may move a record from one status to another:
 * - 'allowed';
 * - 'illegal': the machine has no such move (the server answers 409 workflow.illegalMove);
 * - 'forbidden': the move exists but not for this user: her role, or a record not hers where
 *   the move is own-only (403).
 */
export function moveDecision<S extends string, F extends string>(
  workflow: TWorkflow<S, F>,
  user: TMover,
  from: S,
  to: S,
  record?: TMoved,
): 'allowed' | 'illegal' | 'forbidden' {
  const move = findMove(workflow, from, to);
  if (!move) return 'illegal';
  return mayMake(workflow, move, user, record) ? 'allowed' : 'forbidden';
}

/** The moves a user may make from a status (on this record, for own-only moves): the buttons the web offers. */
export function movesFrom<S extends string, F extends string>(workflow: TWorkflow<S, F>, user: TMover, from: S, record?: TMoved): TMove<S, F>[] {
  return workflow.moves.filter((m) => m.from === from && mayMake(workflow, m, user, record));
}

/** The values the server writes on a move, from its clock and the acting user. */
export function serverSetFields<F extends string>(move: TMove<string, F>, at: { now: Date; actorId: string }): Partial<Record<F, Date | string | null>> {
  const out: Partial<Record<F, Date | string | null>> = {};
  for (const [field, value] of Object.entries(move.sets) as [F, TSetValue][]) {
    out[field] = value === 'now' ? at.now : value === 'actor' ? at.actorId : null;
  }
  return out;
}

/**
 * A chart entry (issue 51): a scribe's draft waits for a nurse or an admin to confirm it; theirs
 * are confirmed as they write them. Entered-in-error is the entry's own status, not a move here.
 */
export const CHART_ENTRY_WORKFLOW: TWorkflow<TChartEntryState, 'confirmedAt' | 'confirmedById'> = {
  name: 'chart entry',
  statuses: CHART_ENTRY_STATES,
  initial: 'draft',
  moves: [{ from: 'draft', to: 'confirmed', roles: rolesWith('chart.confirm'), label: 'Confirm', sets: { confirmedAt: 'now', confirmedById: 'actor' } }],
};
