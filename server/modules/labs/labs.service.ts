import { staffName } from '#domain/auth';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { startOfZonedDay, zonedDate, zonedDayRange } from '#domain/clinic-time';
import { ageInYears, computeFlag, flagRank, isCritical, rangeFor, type TLabFlag, type TLabSubject } from '#domain/lab-flags';
import {
  isUrgentPriority,
  mayReviewLab,
  type TCreateLabOrder,
  type TEnterLabResults,
  type TLabOrder,
  type TLabOrderDetail,
  type TLabOrderListQuery,
  type TLabTest,
  type TUpdateLabOrder,
} from '#domain/labs';
import type { TLabResultSource, TLabResultStatus } from '#domain/lab-interfaces';
import { can } from '#domain/permissions';
import type { TLabOrderStatus } from '#domain/orders';
import { LAB_ORDER_WORKFLOW } from '#domain/workflows';
import type { Queryable, Tx } from '../../db/database.ts';
import { labOrders } from '../../db/schema/clinical.ts';
import { labCriticalAlerts, labResultRevisions, labResults } from '../../db/schema/labs.ts';
import { inTransaction, type Raise } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { forbidden, HttpError, invalid, invalidFields, notFound, stale } from '../../http/errors.ts';
import type { TServedPage } from '../../http/paging.ts';
import type { RequestContext, SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { scopeOf, type ReadScope } from '../../scope/read-scope.ts';
import { writerOf, type ScopedWriter, type TPatientRow } from '../../scope/writer.ts';
import { readOf } from '../../scope/reader.ts';
import { decideMove } from '../../workflows/decide-move.ts';
import { postSystemMessage } from '../chat/system-messages.ts';
import { claimObjects } from '../files/files.service.ts';
import { findLabTest } from './lab-catalogue.queries.ts';
import { noticeLabCollected, noticeLabCritical, noticeLabOrdered, noticeLabResults, resolveLabNotices, type TLabNotice } from './labs.notices.ts';
import {
  assignedNurseToday,
  decodeLabCursor,
  fileNamesOf,
  listLabOrders,
  lockLabOrder,
  readLabOrder,
  revisionsOf,
  trendOf,
  type TLabOrderRow,
} from './labs.queries.ts';

const NOT_FOUND = 'Lab order not found';
const STALE = 'This lab order was changed by someone else. Reload to see their changes, then try again.';

const reviewsOwnOnly = (viewer: ReadScope['viewer']) => can(viewer, 'labs.review') && !can(viewer, 'labs.reviewAny');

/** The reads of lab orders, each in the caller's scope (clinical roles only) and audited with the patients shown. */
export const LAB_READS = {
  /**
   * A list (outstanding, results to review, all), a page at a time. Review is the caller's own
   * orders when she reviews only those; everyone's for one who reviews any, and for one who
   * reviews none (a scribe reads what is waiting, issue 50).
   */
  list: readOf({
    action: 'lab.list',
    entityType: 'lab_order',
    run: ({ db, scope }, query: TLabOrderListQuery): Promise<TServedPage<TLabOrder>> =>
      listLabOrders(db, scope, {
        view: query.view,
        patientId: query.patientId,
        providerId: query.view === 'review' && reviewsOwnOnly(scope.viewer) ? scope.viewer.id : undefined,
        limit: query.limit,
        after: query.cursor ? decodeLabCursor(query.view, query.cursor) : null,
      }),
    shows: (page) => (page.items.length > 0 ? { patientIds: [...new Set(page.items.map((o) => o.patientId))] } : null),
  }),
  get: readOf({
    action: 'lab.read',
    entityType: 'lab_order',
    notFound: NOT_FOUND,
    run: ({ db, scope }, id: string) => readLabOrder(db, scope, id),
    shows: (order, id) => ({ entityId: id, patientId: order.patientId }),
  }),
  /** The corrections of its results. */
  history: readOf({
    action: 'lab.history',
    entityType: 'lab_order',
    notFound: NOT_FOUND,
    run: async ({ db, scope }, id: string) => {
      const order = await readLabOrder(db, scope, id);
      return order && { patientId: order.patientId, revisions: await revisionsOf(db, id) };
    },
    shows: ({ patientId }, id) => ({ entityId: id, patientId }),
  }),
  /** One analyte of the order's patient over time. */
  trend: readOf({
    action: 'lab.trend',
    entityType: 'lab_order',
    notFound: NOT_FOUND,
    run: async ({ db, scope }, args: { id: string; analyteId: string }) => {
      const order = await readLabOrder(db, scope, args.id);
      return order && { patientId: order.patientId, points: await trendOf(db, scope, order.patientId, args.analyteId) };
    },
    shows: ({ patientId }, args) => ({ entityId: args.id, patientId }),
  }),
};

const noticeOf = (
  actor: { id: string | null; name: string },
  order: Pick<TLabOrderRow, 'id' | 'orderName' | 'priority'>,
  patient: Pick<TPatientRow, 'firstName' | 'lastName'>,
): TLabNotice => ({
  orderId: order.id,
  orderName: order.orderName,
  priority: order.priority,
  patientName: `${patient.firstName} ${patient.lastName}`,
  actorId: actor.id,
  actorName: actor.name,
});
const personOf = (ctx: SignedInContext) => ({ id: ctx.user.id, name: staffName(ctx.user) });
/** The caller's view of the order just written. */
const written = async (tx: Queryable, ctx: SignedInContext, id: string): Promise<TLabOrderDetail> => (await readLabOrder(tx, scopeOf(ctx, new Date()), id))!;

/**
 * POST /api/lab-orders: a test for an active patient, by the caller (the ordering provider): a
 * test of the catalogue (its name is the order's) or one named as free text; its priority sets
 * the spec's isUrgent. The nurse on the patient's visit today is asked to collect the specimen.
 */
export async function createLabOrder(deps: Deps, ctx: SignedInContext, input: TCreateLabOrder): Promise<TLabOrderDetail> {
  const timeZone = deps.settings.current().timeZone;
  return inTransaction(deps, async (tx, raise) => {
    const now = deps.config.now();
    const patient = await writerOf(tx, ctx, now).patient(input.patientId);
    const errors = [];
    if (!patient) errors.push({ path: 'patientId', message: 'Patient is required' });
    else if (!patient.isActive) errors.push({ path: 'patientId', message: 'Must be an active patient' });
    const test = input.testId ? await findLabTest(tx, input.testId) : null;
    if (input.testId && !test?.isActive) errors.push({ path: 'testId', message: 'Not a test of the catalogue' });
    if (input.expectedOn && input.expectedOn < zonedDate(now, timeZone)) errors.push({ path: 'expectedOn', message: 'Must not be before today' });
    if (errors.length > 0) throw invalidFields(errors);
    const row = await insertLabOrder(tx, ctx, {
      patientId: input.patientId,
      testId: test?.id ?? null,
      orderName: test?.name ?? input.orderName!,
      description: input.description ?? null,
      priority: input.priority,
      expectedOn: input.expectedOn ?? null,
      expectedAt: input.expectedOn ? startOfZonedDay(input.expectedOn, timeZone) : null,
      placedAt: now,
    });
    await recordAudit(tx, ctx, { action: 'lab.create', entityType: 'lab_order', entityId: row.id, patientId: input.patientId });
    const collector = await assignedNurseToday(tx, input.patientId, zonedDayRange(zonedDate(now, timeZone), timeZone));
    await noticeLabOrdered(tx, raise, collector, noticeOf(personOf(ctx), row, patient!));
    raise({ type: 'lab.changed', orderId: row.id, actorId: ctx.user.id });
    return written(tx, ctx, row.id);
  });
}

/**
 * An order's row, placed by the caller (its ordering provider) now: what POST /api/lab-orders
 * writes, and what filing a lab's unmatched report to a patient makes (issue 54).
 */
export async function insertLabOrder(
  tx: Queryable,
  ctx: SignedInContext,
  order: { patientId: string; orderName: string; placedAt: Date } & Partial<
    Pick<typeof labOrders.$inferInsert, 'testId' | 'description' | 'priority' | 'expectedOn' | 'expectedAt'>
  >,
): Promise<TLabOrderRow> {
  const priority = order.priority ?? 'routine';
  const [row] = await tx
    .insert(labOrders)
    .values({
      patientId: order.patientId,
      providerId: ctx.user.id,
      testId: order.testId ?? null,
      orderName: order.orderName,
      description: order.description ?? null,
      priority,
      isUrgent: isUrgentPriority(priority),
      status: LAB_ORDER_WORKFLOW.initial,
      orderedAt: order.placedAt,
      expectedOn: order.expectedOn ?? null,
      expectedAt: order.expectedAt ?? null,
      createdAt: order.placedAt,
      updatedAt: order.placedAt,
    })
    .returning();
  return row!;
}

/** A refusal when the order changed since it was read (the version sent), or when it does not exist for the caller. */
async function lockForChange(tx: Queryable, writer: ScopedWriter, id: string, version: string | undefined): Promise<TLabOrderRow> {
  const order = await lockLabOrder(tx, id);
  // A restricted patient's order outside the caller's reach is not there, as for her reads.
  if (!order || !(await writer.sees(order.patientId))) throw notFound(NOT_FOUND);
  if (version !== undefined && version !== order.updatedAt.toISOString()) throw stale(STALE);
  return order;
}

/** After the order row and its version: strictly later than the version read, so a second writer holding it is refused. */
const nextVersion = (deps: Deps, order: TLabOrderRow) => new Date(Math.max(deps.config.now().getTime(), order.updatedAt.getTime() + 1));

/**
 * PUT /api/lab-orders/{id}: a move of LAB_ORDER_WORKFLOW (409 when there is no such move, 403
 * when it is not the caller's): 'Mark Collected', or 'Cancel Order' with its required reason.
 * Results in is made by entering results, never by a bare status.
 */
export async function moveLabOrder(deps: Deps, ctx: SignedInContext, id: string, input: TUpdateLabOrder): Promise<TLabOrderDetail> {
  return inTransaction(deps, async (tx, raise) => {
    const writer = writerOf(tx, ctx, deps.config.now());
    const order = await lockForChange(tx, writer, id, input.updatedAt);
    if (input.status === order.status) return written(tx, ctx, id);
    const move = decideMove(LAB_ORDER_WORKFLOW, ctx.user, order.status, input.status);
    if (move.via) throw new HttpError('workflow.illegalMove', { message: move.via.hint });
    if (move.reasonRequired && !input.statusReason) throw invalid('statusReason', 'Say why the order is cancelled');
    if (!move.takesReason && input.statusReason) throw invalid('statusReason', 'Only a cancellation takes a reason');
    const now = nextVersion(deps, order);
    await tx
      .update(labOrders)
      .set({
        status: move.to,
        statusReason: move.takesReason ? (input.statusReason ?? null) : order.statusReason,
        ...(move.to === 'pending' ? { collectedAt: now, collectedById: ctx.user.id } : {}),
        updatedAt: now,
      })
      .where(eq(labOrders.id, id));
    await recordAudit(tx, ctx, { action: `lab.${move.to}`, entityType: 'lab_order', entityId: id, patientId: order.patientId });
    const patient = (await writer.patient(order.patientId))!;
    if (move.to === 'pending') await noticeLabCollected(tx, raise, order.providerId, noticeOf(personOf(ctx), order, patient));
    if (move.to === 'cancelled') await resolveLabNotices(tx, raise, id, ['lab_ordered', 'lab_pending']);
    raise({ type: 'lab.changed', orderId: id, actorId: ctx.user.id });
    return written(tx, ctx, id);
  });
}

/**
 * Who enters results: a person (typed), or a lab's interface (issue 54), whose changes carry no
 * user and are audited under the interface's context, naming the lab.
 */
export interface TResultsActor {
  ctx: RequestContext;
  userId: string | null;
  name: string;
  source: TLabResultSource;
  /** The lab as its messages name it; null when typed. */
  sourceName: string | null;
  /** The message the results came in; null when typed. */
  messageId: string | null;
}
const typedBy = (ctx: SignedInContext): TResultsActor => ({
  ctx,
  userId: ctx.user.id,
  name: staffName(ctx.user),
  source: 'typed',
  sourceName: null,
  messageId: null,
});

export type TPlannedResult = {
  position: number;
  analyteId: string | null;
  name: string;
  valueNumeric: number | null;
  valueText: string | null;
  unit: string | null;
  range: { low: number | null; high: number | null; criticalLow: number | null; criticalHigh: number | null } | null;
  flag: TLabFlag | null;
  flagSource: 'computed' | 'entered' | 'lab' | null;
  resultStatus: TLabResultStatus;
};

/**
 * The results as they will be stored: each value checked against its analyte (a number for a
 * numeric one, text for a text one), placed in the test's order, and flagged: by the catalogue's
 * range for the patient (domain/lab-flags.ts) unless a flag is entered or sent by the lab.
 * A blank value is an analyte not resulted. Every refusal names its field.
 */
function planResults(inputs: TEnterLabResults['results'], test: TLabTest | null, subject: TLabSubject): TPlannedResult[] {
  const errors: { path: string; message: string }[] = [];
  const planned: TPlannedResult[] = [];
  const seen = new Set<number>();
  inputs.forEach((input, i) => {
    const at = (field: string, message: string) => errors.push({ path: `results.${i}.${field}`, message });
    if (input.value === null) return;
    const numeric = typeof input.value === 'number';
    let position = i;
    let name = input.name ?? null;
    let unit = input.unit ?? null;
    let range: TPlannedResult['range'] = null;
    let analyteId: string | null = null;
    if (test) {
      const index = test.analytes.findIndex((a) => a.id === input.analyteId);
      if (index < 0) return at('analyteId', 'Not an analyte of this test');
      const analyte = test.analytes[index]!;
      if (analyte.kind === 'numeric' && !numeric) return at('value', 'Must be a number');
      if (analyte.kind === 'text' && numeric) return at('value', 'Must be text');
      position = index;
      analyteId = analyte.id;
      name = analyte.name;
      unit = analyte.unit;
      const applied = analyte.kind === 'numeric' ? rangeFor(analyte.ranges, subject) : null;
      range = applied && { low: applied.low, high: applied.high, criticalLow: applied.criticalLow, criticalHigh: applied.criticalHigh };
    } else if (!name) {
      return at('name', 'Name what was measured');
    }
    if (seen.has(position)) return at(test ? 'analyteId' : 'name', 'Entered twice');
    seen.add(position);
    const computed = numeric && range ? computeFlag(input.value as number, range) : null;
    const flag = input.flag ?? computed;
    planned.push({
      position,
      analyteId,
      name: name!,
      valueNumeric: numeric ? (input.value as number) : null,
      valueText: numeric ? null : (input.value as string),
      unit,
      range,
      flag,
      flagSource: input.flag ? (input.flagSource ?? 'entered') : computed ? 'computed' : null,
      resultStatus: 'final',
    });
  });
  if (errors.length > 0) throw invalidFields(errors);
  return planned.sort((a, b) => a.position - b.position);
}

const shownValue = (r: { valueNumeric: number | null; valueText: string | null; unit: string | null }) =>
  r.valueNumeric !== null ? `${r.valueNumeric}${r.unit ? ` ${r.unit}` : ''}` : r.valueText;

/**
 * PUT /api/lab-orders/{id}/results: the order's results (docs/decisions/labs.md).
 * - The first entry makes the move to received (LAB_ORDER_WORKFLOW, so who may is the table's).
 * - A later one is a correction: it needs a reason, keeps each changed value before and after in
 *   the history, and reopens review. Values not sent are kept.
 * - The patient's care-team chat rooms get a lab_result message linking the order (no values).
 * - The order keeps its worst flag (the review list's order). A critical value raises an alert
 *   for the ordering provider, live, unless one is still open; the escalation job tells the admins
 *   if nobody acknowledges it in time.
 */
export async function enterLabResults(deps: Deps, ctx: SignedInContext, id: string, input: TEnterLabResults): Promise<TLabOrderDetail> {
  return inTransaction(deps, async (tx, raise) => {
    const writer = writerOf(tx, ctx, deps.config.now());
    const order = await lockForChange(tx, writer, id, input.updatedAt);
    const plan = await planEntry(deps, ctx, tx, writer, order, input);
    await fileEntry(tx, raise, typedBy(ctx), order, input, plan);
    return written(tx, ctx, id);
  });
}

export interface TEntryPlan {
  correcting: boolean;
  move: { to: TLabOrderStatus } | null;
  now: Date;
  patient: TPatientRow;
  planned: TPlannedResult[];
}

/**
 * An entry of results planned and checked, written and told: the one path typed results and a
 * lab's interface both take, so flags, revisions, the critical alert and its escalation, the
 * notices and the audit are the same however a result arrived.
 */
export async function fileEntry(tx: Tx, raise: Raise, actor: TResultsActor, order: TLabOrderRow, input: TEnterLabResults, plan: TEntryPlan) {
  const { worst, critical } = await writeEntry(tx, actor, order, input, plan);
  await noticeEntry(tx, raise, actor, order, plan, { worst, critical });
  raise({ type: 'lab.changed', orderId: order.id, actorId: actor.userId });
}

/** What an entry of results will do, checked before anything is written: the move or correction, and the results with their flags. */
async function planEntry(deps: Deps, ctx: SignedInContext, tx: Tx, writer: ScopedWriter, order: TLabOrderRow, input: TEnterLabResults): Promise<TEntryPlan> {
  const correcting = order.status === 'received';
  if (order.status === 'cancelled') throw new HttpError('workflow.illegalMove', { message: 'A cancelled order takes no results' });
  const move = correcting ? null : decideMove(LAB_ORDER_WORKFLOW, ctx.user, order.status, 'received');
  if (correcting && !input.correctionReason) throw invalid('correctionReason', 'Say why the results are corrected');
  if (!correcting && input.correctionReason) throw invalid('correctionReason', 'Only a correction takes a reason');
  const now = nextVersion(deps, order);
  const patient = (await writer.patient(order.patientId))!;
  const test = order.testId ? await findLabTest(tx, order.testId) : null;
  const today = zonedDate(now, deps.settings.current().timeZone);
  const planned = planResults(input.results, test, { sex: patient.sex, ageYears: ageInYears(patient.dateOfBirth, today) });
  if (!correcting && planned.length === 0 && !input.resultsText && !input.attachments?.length) {
    throw invalid('results', 'Enter at least one result, the report text or the report file');
  }
  return { correcting, move, now, patient, planned };
}

/**
 * Writes the results that changed (each correction with its before-value, the report's text and
 * files too), the order's worst flag, text, files and move. Answers the worst flag and the
 * critical values that changed, for the notices.
 */
async function writeEntry(tx: Tx, actor: TResultsActor, order: TLabOrderRow, input: TEnterLabResults, plan: TEntryPlan) {
  const { correcting, move, now, planned } = plan;
  const revision = {
    orderId: order.id,
    at: now,
    actorId: actor.userId,
    source: actor.source,
    sourceName: actor.sourceName,
    reason: input.correctionReason ?? null,
  };
  const existing = await tx.select().from(labResults).where(eq(labResults.orderId, order.id));
  const critical: string[] = [];
  for (const result of planned) {
    const before = existing.find((r) => r.position === result.position);
    const same = before && before.valueNumeric === result.valueNumeric && before.valueText === result.valueText && before.flag === result.flag;
    if (same && before.resultStatus === result.resultStatus) continue;
    const resultId = await writeResult(tx, actor, order.id, result, before, plan);
    if (correcting) {
      const values = {
        valueBefore: before ? shownValue(before) : null,
        valueAfter: shownValue(result),
        flagBefore: before?.flag ?? null,
        flagAfter: result.flag,
      };
      await tx.insert(labResultRevisions).values({ ...revision, resultId, resultName: result.name, ...values });
    }
    if (isCritical(result.flag)) critical.push(`${result.name} ${shownValue(result)} (${result.flag})`);
  }
  // The report's text and files are corrected as values are: each keeps its before-value (issue 47).
  if (correcting) for (const change of await reportChanges(tx, order, input)) await tx.insert(labResultRevisions).values({ ...revision, ...change });

  const all = [...existing.filter((r) => !planned.some((p) => p.position === r.position)), ...planned];
  const worst = all.reduce<TLabFlag | null>((w, r) => (flagRank(r.flag) > flagRank(w) ? r.flag : w), null);
  // Only a person attaches files (a lab's report comes as its message).
  if (input.attachments && actor.ctx.user)
    await claimObjects(tx, { ...actor.ctx, user: actor.ctx.user }, input.attachments, { type: 'lab_order', id: order.id }, now);
  await tx
    .update(labOrders)
    .set({
      ...(move ? { status: move.to, receivedAt: now } : { reviewedAt: null, reviewedById: null }),
      ...(input.resultsText !== undefined ? { results: input.resultsText } : {}),
      ...(input.attachments ? { attachments: [...new Set(input.attachments)] } : {}),
      worstFlag: worst,
      flagRank: flagRank(worst),
      updatedAt: now,
    })
    .where(eq(labOrders.id, order.id));
  const action = correcting ? 'lab.results_correct' : 'lab.results_enter';
  await recordAudit(tx, actor.ctx, { action, entityType: 'lab_order', entityId: order.id, patientId: order.patientId });
  return { worst, critical };
}

/** One result, new or changed: its row's id. */
async function writeResult(tx: Tx, actor: TResultsActor, orderId: string, result: TPlannedResult, before: { id: string } | undefined, plan: TEntryPlan) {
  const values = {
    analyteId: result.analyteId,
    name: result.name,
    valueNumeric: result.valueNumeric,
    valueText: result.valueText,
    unit: result.unit,
    refLow: result.range?.low ?? null,
    refHigh: result.range?.high ?? null,
    criticalLow: result.range?.criticalLow ?? null,
    criticalHigh: result.range?.criticalHigh ?? null,
    flag: result.flag,
    flagSource: result.flagSource,
    // A person's correction of a value is a corrected result, as a lab's status C is.
    resultStatus: plan.correcting && actor.source === 'typed' ? 'corrected' : result.resultStatus,
    source: actor.source,
    inboundMessageId: actor.messageId,
  };
  if (before) {
    await tx
      .update(labResults)
      .set({ ...values, enteredById: actor.userId, correctedAt: plan.now })
      .where(eq(labResults.id, before.id));
    return before.id;
  }
  const entered = { orderId, position: result.position, enteredById: actor.userId, enteredAt: plan.now, correctedAt: plan.correcting ? plan.now : null };
  const [row] = await tx
    .insert(labResults)
    .values({ ...values, ...entered })
    .returning({ id: labResults.id });
  return row!.id;
}

/** A correction's changes to the report's text and files, each as a revision's name and values. */
async function reportChanges(tx: Tx, order: TLabOrderRow, input: TEnterLabResults) {
  const files = input.attachments && [...new Set(input.attachments)];
  return [
    ...(input.resultsText !== undefined && (input.resultsText ?? null) !== order.results
      ? [{ resultName: 'Report text', valueBefore: order.results, valueAfter: input.resultsText ?? null }]
      : []),
    ...(files && files.join('\n') !== order.attachments.join('\n')
      ? [{ resultName: 'Report files', valueBefore: await fileNamesOf(tx, order.attachments), valueAfter: await fileNamesOf(tx, files) }]
      : []),
  ];
}

/** Who hears of an entry: the ordering provider, a critical alert, and the patient's care-team rooms (without the values). */
async function noticeEntry(
  tx: Tx,
  raise: Raise,
  actor: TResultsActor,
  order: TLabOrderRow,
  plan: TEntryPlan,
  found: { worst: TLabFlag | null; critical: string[] },
) {
  const notice = noticeOf({ id: actor.userId, name: actor.name }, order, plan.patient);
  await noticeLabResults(tx, raise, order.providerId, notice, { abnormal: flagRank(found.worst) > 0, corrected: plan.correcting });
  if (found.critical.length > 0) await raiseCriticalAlert(tx, raise, order, notice, found.critical.join('; '), plan.now);
  // The spec's lab_result chat message (section 4): from whoever typed the results, or, for a
  // lab's, from the order's provider (a chat message has a staff sender; its text names the lab).
  const senderId = actor.userId ?? order.providerId;
  if (!senderId) return;
  await postSystemMessage(tx, raise, {
    patientId: order.patientId,
    senderId,
    messageType: 'lab_result',
    content: `${plan.correcting ? 'Lab results corrected' : 'Lab results in'}${actor.sourceName ? ` from ${actor.sourceName}` : ''}: ${order.orderName}. See Lab Orders.`,
    related: { type: 'lab_order', id: order.id },
    at: plan.now,
  });
}

/** A critical value: an alert to acknowledge, unless one is still open for the order. */
async function raiseCriticalAlert(tx: Queryable, raise: Raise, order: TLabOrderRow, notice: TLabNotice, values: string, now: Date) {
  const [open] = await tx
    .select({ id: labCriticalAlerts.id })
    .from(labCriticalAlerts)
    .where(and(eq(labCriticalAlerts.orderId, order.id), isNull(labCriticalAlerts.acknowledgedAt)));
  if (open) return;
  await tx.insert(labCriticalAlerts).values({ orderId: order.id, raisedAt: now, createdAt: now, updatedAt: now });
  await noticeLabCritical(tx, raise, order.providerId, notice, values);
}

/** Acknowledges the order's open critical alert, if it has one; answers whether it did. */
async function acknowledgeOpenAlert(tx: Queryable, raise: Raise, ctx: SignedInContext, order: TLabOrderRow, now: Date): Promise<boolean> {
  const acknowledged = await tx
    .update(labCriticalAlerts)
    .set({ acknowledgedAt: now, acknowledgedById: ctx.user.id, updatedAt: now })
    .where(and(eq(labCriticalAlerts.orderId, order.id), isNull(labCriticalAlerts.acknowledgedAt)))
    .returning({ id: labCriticalAlerts.id });
  if (acknowledged.length === 0) return false;
  await recordAudit(tx, ctx, { action: 'lab.critical_acknowledge', entityType: 'lab_order', entityId: order.id, patientId: order.patientId });
  await resolveLabNotices(tx, raise, order.id, ['lab_critical']);
  return true;
}

/** Who may review or acknowledge this order's results: its ordering provider, or whoever reviews anyone's (403 otherwise). */
function refuseUnlessReviewer(ctx: SignedInContext, order: TLabOrderRow) {
  if (!mayReviewLab(ctx.user, order)) throw forbidden();
}

/**
 * POST /api/lab-orders/{id}/acknowledge: the ordering provider (or an admin) has seen the
 * critical value. Resolves the alert's notifications for everyone, the escalation's included.
 */
export async function acknowledgeLabCritical(deps: Deps, ctx: SignedInContext, id: string): Promise<TLabOrderDetail> {
  return inTransaction(deps, async (tx, raise) => {
    const order = await lockForChange(tx, writerOf(tx, ctx, deps.config.now()), id, undefined);
    refuseUnlessReviewer(ctx, order);
    if (!(await acknowledgeOpenAlert(tx, raise, ctx, order, deps.config.now()))) {
      throw new HttpError('workflow.illegalMove', { message: 'No critical result of this order is waiting to be acknowledged' });
    }
    raise({ type: 'lab.changed', orderId: id, actorId: ctx.user.id });
    return written(tx, ctx, id);
  });
}

/**
 * POST /api/lab-orders/{id}/review: the results are reviewed (review is its own step after
 * received). Reviewing a critical result acknowledges its alert too.
 */
export async function reviewLabOrder(deps: Deps, ctx: SignedInContext, id: string, version: string | undefined): Promise<TLabOrderDetail> {
  return inTransaction(deps, async (tx, raise) => {
    const order = await lockForChange(tx, writerOf(tx, ctx, deps.config.now()), id, version);
    refuseUnlessReviewer(ctx, order);
    if (order.status !== 'received') throw new HttpError('workflow.illegalMove', { message: 'Only results that are in can be reviewed' });
    if (order.reviewedAt) throw new HttpError('workflow.illegalMove', { message: 'These results are already reviewed' });
    const now = nextVersion(deps, order);
    await tx
      .update(labOrders)
      .set({
        reviewedAt: now,
        reviewedById: ctx.user.id,
        firstReviewedAt: sql`coalesce(${labOrders.firstReviewedAt}, ${now.toISOString()}::timestamptz)`,
        updatedAt: now,
      })
      .where(eq(labOrders.id, id));
    await recordAudit(tx, ctx, { action: 'lab.review', entityType: 'lab_order', entityId: id, patientId: order.patientId });
    await acknowledgeOpenAlert(tx, raise, ctx, order, now);
    await resolveLabNotices(tx, raise, id, ['lab_received']);
    raise({ type: 'lab.changed', orderId: id, actorId: ctx.user.id });
    return written(tx, ctx, id);
  });
}
