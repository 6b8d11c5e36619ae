import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { IN_ERROR_REASON_REQUIRED, type TChartList } from '#domain/chart';
import { can } from '#domain/permissions';
import { CHART_ENTRY_WORKFLOW } from '#domain/workflows';
import type { Queryable, Tx } from '../../db/database.ts';
import { chartRevisions, type patientAllergies, type patientMedications, type patientProblems, type vitalSigns } from '../../db/schema/chart.ts';
import { inTransaction, type Raise } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { forbidden, HttpError, invalid, invalidFields, notFound, stale } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { writerOf } from '../../scope/writer.ts';
import { decideMove } from '../../workflows/decide-move.ts';

const NOT_FOUND = 'Patient not found';
const ENTRY_NOT_FOUND = 'Chart entry not found';

type TEntryTable = typeof patientAllergies | typeof patientProblems | typeof patientMedications | typeof vitalSigns;
/** Who wrote an entry and where it stands: the same on every list. */
type TEntryMeta = { id: string; patientId: string; state: 'draft' | 'confirmed'; version: number; recordedById: string | null };
type TEntryAction = 'created' | 'updated' | 'confirmed' | 'entered_in_error' | 'assessed';

/**
 * One list of the chart (allergies, problems, medications): what is list-specific, while the
 * lifecycle every list shares (who may write, drafts and confirmation, versions, entered-in-error
 * with a reason, the history and its audit) is written once, below.
 */
export interface TChartListDef<T extends TEntryTable, E extends TEntryMeta, F> {
  list: Exclude<TChartList, 'assessment'>;
  table: T;
  /** The whole entry's schema, with its defaults: a new entry, and a changed one merged with what it was. */
  fields: z.ZodType<F, unknown>;
  /** The entry's fields as `fields` takes them back. */
  inputOf: (entry: E) => Record<string, unknown>;
  /** Whether an entry, or the fields of one, is marked entered-in-error (a status or a verification, by list). */
  inError: (entry: E | F) => boolean;
  /** Her entries of the list; `where` narrows them (to one, by id). */
  read: (q: Queryable, patientId: string, where?: SQL) => Promise<E[]>;
  lock: (q: Queryable, patientId: string, id: string) => Promise<T['$inferSelect'] | null>;
  /** The row's clinical columns from checked fields, codes resolved against their catalogue (`sent`: what the change named). */
  columns: (
    tx: Tx,
    fields: F,
    change: { sent: Record<string, unknown> | null; before: E | null; patientId: string; now: Date },
  ) => Promise<Partial<T['$inferInsert']>>;
  /** What a change of this list sets off besides its revision (an allergy ends a contradicted NKA). */
  afterChange?: (tx: Tx, raise: Raise, ctx: SignedInContext, entry: E, now: Date) => Promise<void>;
}

/** An entry's clinical fields, as its history keeps them (the record of who and when is the revision's own). */
export function clinicalOf<E extends TEntryMeta>(entry: E): Record<string, unknown> {
  const { id: _i, patientId: _p, state: _s, version: _v, recordedById: _rb, ...rest } = entry;
  const { recordedAt: _r, recordedByName: _rn, confirmedAt: _c, confirmedByName: _cn, updatedAt: _u, ...clinical } = rest as Record<string, unknown>;
  return clinical;
}

/** One change of the chart: its revision (before and after), its audit row, and the event that tells open charts. */
export async function recordChange(
  tx: Tx,
  raise: Raise,
  ctx: SignedInContext,
  change: {
    patientId: string;
    list: TChartList;
    entryId: string | null;
    action: TEntryAction;
    at: Date;
    before: object | null;
    after: object | null;
    reason?: string | null;
  },
) {
  await tx
    .insert(chartRevisions)
    .values({
      patientId: change.patientId,
      list: change.list,
      entryId: change.entryId,
      action: change.action,
      at: change.at,
      actorId: ctx.user.id,
      before: change.before as Record<string, unknown> | null,
      after: change.after as Record<string, unknown> | null,
      reason: change.reason ?? null,
    });
  const ACTIONS = {
    created: 'chart.create',
    updated: 'chart.update',
    confirmed: 'chart.confirm',
    entered_in_error: 'chart.entered_in_error',
    assessed: 'chart.allergy_statement',
  } as const;
  await recordAudit(tx, ctx, {
    action: ACTIONS[change.action],
    entityType: change.entryId ? 'chart_entry' : 'patient',
    entityId: change.entryId ?? change.patientId,
    patientId: change.patientId,
  });
  raise({ type: 'chart.changed', patientId: change.patientId, actorId: ctx.user.id });
}

async function readOne<E extends TEntryMeta>(
  def: { table: TEntryTable; read: (q: Queryable, patientId: string, where?: SQL) => Promise<E[]> },
  q: Queryable,
  patientId: string,
  id: string,
): Promise<E> {
  const [entry] = await def.read(q, patientId, sql`${def.table.id} = ${id}::uuid`);
  if (!entry) throw notFound(ENTRY_NOT_FOUND);
  return entry;
}

// The table is one of the three entry tables; drizzle's builders are typed per table, so the
// shared columns are written through the first one's type.
const asTable = (table: TEntryTable) => table as typeof patientAllergies;

/** POST /api/patients/{id}/{list}: a nurse's or an admin's entry is confirmed as written, a scribe's is a draft. */
export async function createEntry<T extends TEntryTable, E extends TEntryMeta, F>(
  deps: Deps,
  ctx: SignedInContext,
  def: TChartListDef<T, E, F>,
  patientId: string,
  fields: F,
): Promise<E> {
  const now = deps.config.now();
  return inTransaction(deps, async (tx, raise) => {
    if (!(await writerOf(tx, ctx, now).patient(patientId))) throw notFound(NOT_FOUND);
    const confirmed = can(ctx.user, 'chart.confirm');
    const [row] = await tx
      .insert(asTable(def.table))
      .values({
        ...((await def.columns(tx, fields, { sent: null, before: null, patientId, now })) as object),
        patientId,
        state: confirmed ? 'confirmed' : 'draft',
        recordedAt: now,
        recordedById: ctx.user.id,
        confirmedAt: confirmed ? now : null,
        confirmedById: confirmed ? ctx.user.id : null,
        createdAt: now,
        updatedAt: now,
      } as typeof patientAllergies.$inferInsert)
      .returning({ id: asTable(def.table).id });
    const entry = await readOne(def, tx, patientId, row!.id);
    await recordChange(tx, raise, ctx, { patientId, list: def.list, entryId: entry.id, action: 'created', at: now, before: null, after: clinicalOf(entry) });
    await def.afterChange?.(tx, raise, ctx, entry, now);
    return entry;
  });
}

/** Who may change an entry: a confirmer any entry; a scribe only her own draft. */
const mayChange = (ctx: SignedInContext, row: { state: string; recordedById: string | null }) =>
  can(ctx.user, 'chart.confirm') || (row.state === 'draft' && row.recordedById === ctx.user.id);

/** Rolls back a change that changed nothing, and carries the entry as it stands to the caller. */
class NothingChanged<E> extends Error {
  constructor(readonly entry: E) {
    super('nothing changed');
  }
}

/**
 * PUT /api/patients/{id}/{list}/{entryId}: the fields sent change, the rest stay, and the entry
 * as changed is checked whole. Refused when it is not hers to change, already entered-in-error,
 * or changed since the version she read; entered-in-error needs a reason. A scribe's change of
 * her draft keeps it a draft; a confirmer's change of one confirms it. A change that changes
 * nothing writes nothing.
 */
export async function changeEntry<T extends TEntryTable, E extends TEntryMeta, F>(
  deps: Deps,
  ctx: SignedInContext,
  def: TChartListDef<T, E, F>,
  patientId: string,
  entryId: string,
  input: { version?: number | undefined; reason?: string | null | undefined } & Record<string, unknown>,
): Promise<E> {
  const { version, reason, ...sent } = input;
  const now = deps.config.now();
  return inTransaction(deps, async (tx, raise) => {
    await writerOf(tx, ctx, now).mustSee(patientId);
    const row = (await def.lock(tx, patientId, entryId)) as (TEntryMeta & Record<string, unknown>) | null;
    if (!row) throw notFound(ENTRY_NOT_FOUND);
    if (!mayChange(ctx, row)) throw forbidden();
    const before = await readOne(def, tx, patientId, entryId);
    if (def.inError(before)) {
      throw new HttpError('workflow.illegalMove', { message: 'An entry marked entered in error stays as it is' });
    }
    if (version !== undefined && version !== row.version) throw stale('Someone else changed this entry. Reload it to see their change, then make yours again.');
    const merged = def.fields.safeParse({ ...def.inputOf(before), ...sent });
    if (!merged.success) throw invalidFields(merged.error.issues.map((issue) => ({ path: issue.path.join('.') || 'body', message: issue.message })));
    const enteredInError = def.inError(merged.data);
    if (enteredInError && !reason) throw invalid('reason', IN_ERROR_REASON_REQUIRED);
    const confirming = row.state === 'draft' && can(ctx.user, 'chart.confirm');
    const table = asTable(def.table);
    await tx
      .update(table)
      .set({
        ...((await def.columns(tx, merged.data, { sent, before, patientId, now })) as object),
        ...(confirming ? { state: 'confirmed' as const, confirmedAt: now, confirmedById: ctx.user.id } : {}),
        version: row.version + 1,
        updatedAt: now,
      })
      .where(and(eq(table.id, entryId), eq(table.version, row.version)));
    const after = await readOne(def, tx, patientId, entryId);
    if (JSON.stringify(clinicalOf(before)) === JSON.stringify(clinicalOf(after)) && !confirming) throw new NothingChanged(before);
    await recordChange(tx, raise, ctx, {
      patientId,
      list: def.list,
      entryId,
      action: enteredInError ? 'entered_in_error' : 'updated',
      at: now,
      before: clinicalOf(before),
      after: clinicalOf(after),
      reason: reason ?? null,
    });
    await def.afterChange?.(tx, raise, ctx, after, now);
    return after;
  }).catch((error: unknown) => {
    if (error instanceof NothingChanged) return error.entry as E;
    throw error;
  });
}

/** POST /api/patients/{id}/{list}/{entryId}/confirm: a scribe's draft confirmed by a nurse or an admin (CHART_ENTRY_WORKFLOW). */
export async function confirmEntry<T extends TEntryTable, E extends TEntryMeta, F>(
  deps: Deps,
  ctx: SignedInContext,
  def: TChartListDef<T, E, F>,
  patientId: string,
  entryId: string,
  version: number | undefined,
): Promise<E> {
  const now = deps.config.now();
  return inTransaction(deps, async (tx, raise) => {
    await writerOf(tx, ctx, now).mustSee(patientId);
    const row = (await def.lock(tx, patientId, entryId)) as (TEntryMeta & Record<string, unknown>) | null;
    if (!row) throw notFound(ENTRY_NOT_FOUND);
    decideMove(CHART_ENTRY_WORKFLOW, ctx.user, row.state, 'confirmed');
    if (version !== undefined && version !== row.version) throw stale('Someone else changed this entry. Reload it, then confirm it.');
    const table = asTable(def.table);
    await tx
      .update(table)
      .set({ state: 'confirmed', confirmedAt: now, confirmedById: ctx.user.id, version: row.version + 1, updatedAt: now })
      .where(eq(table.id, entryId));
    const after = await readOne(def, tx, patientId, entryId);
    await recordChange(tx, raise, ctx, {
      patientId,
      list: def.list,
      entryId,
      action: 'confirmed',
      at: now,
      before: { state: 'draft' },
      after: { state: 'confirmed' },
    });
    return after;
  });
}
