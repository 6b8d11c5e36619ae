import type { TRole } from './roles.ts';

/**
 * The one table of who may do what (spec section 6, plus the rules later issues add).
 * The server enforces it on every route and every read; the web only uses it to hide
 * what the user may not do. Change a rule here and both sides follow.
 */
export const CAPABILITIES = {
  /** Administration group in the sidebar and the Admin Panel. */
  'admin.panel': ['admin', 'scheduler'],
  /** The appointment lists and calendar: minimum necessary, so a supplier has none. */
  'appointments.read': ['admin', 'scheduler', 'nurse', 'scribe'],
  /**
   * PUT /api/appointments/{id}: the visit flow's moves (which ones, the workflow decides) and,
   * for those who may schedule, rescheduling.
   */
  'appointments.update': ['admin', 'scheduler', 'nurse'],
  /** Schedule Appointment and Check Missing Notes. */
  'appointments.schedule': ['scheduler', 'admin'],
  /** Assigned nurse and scribe names on calendar entries. */
  'appointments.seeStaffNames': ['scheduler', 'admin'],
  /**
   * Every appointment's patient name (spec section 6); others see it only on the visits they
   * are assigned to (domain/record-scope.ts seesAppointmentPatientName).
   */
  'appointments.seeAllPatientNames': ['scheduler', 'admin'],
  /** The visit flow's moves: Check In, Start Visit, Complete (domain/workflows.ts). */
  'appointments.runVisit': ['admin', 'scheduler', 'nurse'],
  /** The front desk's moves: Cancel and No-show, with a reason (domain/workflows.ts). */
  'appointments.cancel': ['scheduler', 'admin'],
  /** Patient records: minimum necessary, so a supplier has none. */
  'patients.read': ['admin', 'scheduler', 'nurse', 'scribe'],
  'patients.write': ['admin', 'scheduler', 'nurse'],
  /** Setting a patient inactive (patients are never hard-deleted). */
  'patients.deactivate': ['admin', 'scheduler'],
  /** Restricting a record and naming its care team; reviewing break-glass uses (issue 33). */
  'patients.restrict': ['admin'],
  /** Opening a restricted record in an emergency: anyone who reads patient records. */
  'patients.breakGlass': ['admin', 'scheduler', 'nurse', 'scribe'],
  /** The notes screen and GET /api/notes: which notes, the note scope decides (domain/record-scope.ts). */
  'notes.read': ['admin', 'scheduler', 'nurse', 'scribe'],
  /** 'Create New Note' button. */
  'notes.create': ['nurse', 'admin'],
  /**
   * Writes the visits' notes as her daily work, so an empty My Notes invites her to write the
   * first (spec section 5's hint 'for a nurse'); an admin who may also create one is told there
   * is nothing to review instead.
   */
  'notes.writeVisitNotes': ['nurse'],
  /** Editing any note's content before it is final (domain/notes.ts mayEditNote). */
  'notes.editBeforeFinal': ['admin'],
  /** Editing a note's content while it waits for review ('Edit & Review'). */
  'notes.editUnderReview': ['scribe'],
  /** Amending a finalized note, with a reason (docs/decisions/notes.md). */
  'notes.amend': ['admin'],
  /**
   * 'Add Scribe' (spec section 6): the notes waiting for review, without their text, and giving
   * one a scribe, who is told (docs/decisions/notes.md).
   */
  'notes.addScribe': ['scheduler'],
  /**
   * Lab orders and their results (issue 30; docs/decisions/labs.md): clinical staff read them;
   * a supplier never sees one, a scheduler has no clinical need to.
   */
  'labs.read': ['admin', 'nurse', 'scribe'],
  /** Order a test for a patient (the caller is the ordering provider). */
  'labs.order': ['admin', 'nurse'],
  /** Mark a specimen collected or sent, cancel an order (domain/workflows.ts LAB_ORDER_WORKFLOW). */
  'labs.track': ['admin', 'nurse'],
  /** Enter or correct an order's results. */
  'labs.enterResults': ['admin', 'nurse'],
  /** Review, and acknowledge the critical alert of, the results of one's own orders. */
  'labs.review': ['admin', 'nurse'],
  /** Review, and acknowledge, anyone's: the escalation's addressees. */
  'labs.reviewAny': ['admin'],
  /** The clinic's test catalogue: tests, analytes, units and ranges. */
  'labs.catalogue': ['admin'],
  /** The results a lab's interface could not file by itself (issue 54): read, filed to an order, or rejected. */
  'labs.inbox': ['admin', 'nurse'],
  /** The labs the clinic sends orders to: their address, message and codes, and the sends that failed. */
  'labs.interface': ['admin'],
  /**
   * The clinical chart (issue 51; docs/decisions/clinical-chart.md): allergies, problems,
   * medications and vital signs. Clinical staff read the lists; a scheduler sees only the allergy
   * banner (she books and greets the patient); a supplier nothing.
   */
  'chart.read': ['admin', 'nurse', 'scribe'],
  /** The allergy banner on every screen that shows one patient (and her summary with her record). */
  'chart.banner': ['admin', 'scheduler', 'nurse', 'scribe'],
  /** Record entries (and change them): a scribe's are drafts, which she alone changes until they are confirmed. */
  'chart.record': ['admin', 'nurse', 'scribe'],
  /**
   * Entries confirmed as written; confirm a scribe's draft; change any entry or mark it
   * entered-in-error; state 'No known allergies' (CHART_ENTRY_WORKFLOW).
   */
  'chart.confirm': ['admin', 'nurse'],
  /** The formulary the chart and prescriptions share, and the clinic's own condition codes. */
  'formulary.manage': ['admin'],
  /**
   * Prescriptions (issue 52; docs/decisions/prescriptions.md). Grant and revoke prescribing rights:
   * license, NPI, DEA number.
   */
  'prescriptions.grant': ['admin'],
  /** The roles that may hold prescribing rights (a nurse practitioner is a nurse): only such a user, with rights, signs. */
  'prescriptions.sign': ['admin', 'nurse'],
  /** Prescriptions' content, and the /prescriptions screen: clinical staff. A scheduler sees only that a visit has some; a supplier nothing. */
  'prescriptions.read': ['admin', 'nurse', 'scribe'],
  /** Write a draft for a prescriber to sign, as notes move from nurse to scribe (a scribe discards only her own). */
  'prescriptions.prepare': ['admin', 'nurse', 'scribe'],
  /** Print or send a signed prescription; mark one completed, discontinued or entered-in-error (PRESCRIPTION_WORKFLOW). */
  'prescriptions.manage': ['admin', 'nurse'],
  /**
   * Supplies (issue 31; docs/decisions/supplies.md): the catalogue and its stock, and recording
   * what was used. The staff who keep the clinic running; a supplier sees only her orders.
   */
  'supplies.stock': ['admin', 'scheduler', 'nurse'],
  /** Order supplies, turn reorder suggestions into orders, confirm a pickup, cancel before processing. */
  'supplies.order': ['admin', 'scheduler', 'nurse'],
  /** The supply orders list: every order for those who order, her own for a supplier. */
  'supplies.readOrders': ['admin', 'scheduler', 'nurse', 'supplier'],
  /** Fill orders: start processing and mark ready for pickup (a supplier her own orders only; an admin any, for a supplier who phones). */
  'supplies.fulfil': ['supplier', 'admin'],
  /** The catalogue's items and prices, and stock counts (a difference needs its reason). */
  'supplies.manage': ['admin'],
  /** Create chat rooms, add members, load the staff list. */
  'chat.manageRooms': ['admin', 'scheduler'],
  /** Every room in the room list, to oversee them (reading one still needs membership: docs/decisions/chat.md). */
  'chat.seeAllRooms': ['admin'],
  /** See rooms, read and send messages. */
  'chat.use': ['admin', 'scheduler', 'nurse', 'scribe', 'supplier'],
  /**
   * POST /api/objects/upload: a signed URL to send one file to. Anyone who may attach a file to
   * something (a note, a chat message: every role chats) may ask; confirming decides for what.
   */
  'files.upload': ['admin', 'scheduler', 'nurse', 'scribe', 'supplier'],
  /** PUT /api/patient-attachments: those who write or edit note content (docs/decisions/files.md). */
  'files.attachToNotes': ['admin', 'nurse', 'scribe'],
  /** GET /api/staff and GET /api/scheduler/staff. */
  'staff.list': ['admin', 'scheduler'],
  /**
   * The Admin Panel's User Management tab read as a staff directory (GET /api/admin/staff-directory):
   * each account's name, role and whether it is active, no email or sign-in times. The front desk
   * ("some admin access") needs to know who works here in which role; changing accounts stays
   * users.manage (docs/decisions/admin-panel.md).
   */
  'users.readDirectory': ['admin', 'scheduler'],
  /** The Admin Panel's user management: the user list, invites, roles, deactivation, password resets. */
  'users.manage': ['admin'],
  /** API clients of the FHIR API (issue 35): create one acting as a staff account, revoke it. */
  'apiClients.manage': ['admin'],
  /**
   * Patient groups (a study, a payer's members) that API clients export with `Group/{id}/$export`:
   * create, rename, delete one, and choose its members (docs/decisions/fhir.md).
   */
  'patientGroups.manage': ['admin'],
  /** The Admin Panel's Analytics tab and its charts (docs/decisions/admin-panel.md). */
  'analytics.view': ['admin', 'scheduler'],
  /**
   * The Reports screen and every report route (issue 34). Nobody else sees even her own figures:
   * docs/decisions/reports.md says why.
   */
  'reports.view': ['admin', 'scheduler'],
  /** The Admin Panel's Settings tab: clinic name, time zone, session idle timeout. */
  'settings.manage': ['admin'],
  /** The audit trail: its rows, its export and the check of its chain (issue 20: admin only). */
  'audit.read': ['admin'],
  /** Dashboard stats and one's own notifications. */
  'dashboard.view': ['admin', 'scheduler', 'nurse', 'scribe', 'supplier'],
} as const satisfies Record<string, readonly TRole[]>;

export type TCapability = keyof typeof CAPABILITIES;

/** The roles that hold a capability: for tables that name who may do something (the workflows). */
export const rolesWith = (capability: TCapability): readonly TRole[] => CAPABILITIES[capability];

export function can(user: { role: TRole } | null | undefined, capability: TCapability): boolean {
  if (!user) return false;
  return (CAPABILITIES[capability] as readonly TRole[]).includes(user.role);
}
