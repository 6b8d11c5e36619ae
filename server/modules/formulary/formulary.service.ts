import { eq } from 'drizzle-orm';
import type { TChangeConditionCode, TConditionCode, TNewConditionCode } from '#domain/condition-codes';
import { formularyName, type TCatalogueQuery, type TFormularyItem, type TSaveFormularyItem } from '#domain/formulary';
import { recordAudit } from '../../audit/audit-writer.ts';
import type { Queryable } from '../../db/database.ts';
import { conditionCodes, formularyItems } from '../../db/schema/chart.ts';
import { sqlStateOf } from '../../db/sql-state.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, invalid, notFound, stale } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import {
  clashingItem,
  conditionCodeOf,
  listConditionCodes,
  listFormulary,
  lockConditionCode,
  lockFormularyItem,
  readFormularyItem,
} from './formulary.queries.ts';

/**
 * The catalogues the chart and prescriptions share (issue 51; docs/decisions/clinical-chart.md):
 * the formulary and the problem list's condition codes, edited by an admin (formulary.manage).
 * They name no patient: read unaudited; every change audited. Nothing is deleted: a medication
 * or problem entry names its item, so an item is retired instead, out of the pickers.
 */
export const formularyFor = (deps: Deps, query: TCatalogueQuery) => listFormulary(deps.db, query);
export const conditionCodesFor = (deps: Deps, query: TCatalogueQuery) => listConditionCodes(deps.db, query);

const DUPLICATE_ITEM = () => new HttpError('record.conflict', { message: 'An item of that name is already in the formulary' });

/** The name (any case) and the RxNorm code are each the formulary's one item's (formulary_items_name_key, _rxcui_key). */
async function refuseClash(tx: Queryable, values: { name: string; rxcui: string | null }, id: string | null) {
  const clash = await clashingItem(tx, values, id);
  if (clash === 'name') throw DUPLICATE_ITEM();
  if (clash === 'rxcui') throw new HttpError('record.conflict', { message: `RxNorm code ${values.rxcui} is already another item's` });
}

/**
 * Adds an item (id null) or rewrites one. Its name is made from its ingredients, strength and
 * form, as the starter list's are. An item the clinic rewrites becomes the clinic's: an RxNorm
 * import or a starter-list update leaves it as the clinic wrote it. Retiring alone keeps its source.
 */
export async function saveFormularyItem(deps: Deps, ctx: SignedInContext, id: string | null, input: TSaveFormularyItem): Promise<TFormularyItem> {
  const { updatedAt, ...fields } = input;
  const values = { ...fields, name: formularyName(fields) };
  try {
    const savedId = await inTransaction(deps, async (tx) => {
      const now = deps.config.now();
      await refuseClash(tx, values, id);
      if (id === null) {
        const [row] = await tx
          .insert(formularyItems)
          .values({ ...values, source: 'clinic', createdAt: now, updatedAt: now })
          .returning({ id: formularyItems.id });
        await recordAudit(tx, ctx, { action: 'formulary.create', entityType: 'formulary_item', entityId: row!.id });
        return row!.id;
      }
      const current = await lockFormularyItem(tx, id);
      if (!current) throw notFound('Formulary item not found');
      if (updatedAt !== undefined && updatedAt !== current.updatedAt.toISOString()) throw stale();
      const rewritten =
        (['name', 'strength', 'doseForm', 'route', 'rxcui', 'atc', 'schedule'] as const).some((k) => values[k] !== current[k]) ||
        values.ingredients.join('\u0000') !== current.ingredients.join('\u0000');
      await tx
        .update(formularyItems)
        .set({ ...values, source: rewritten ? 'clinic' : current.source, updatedAt: now })
        .where(eq(formularyItems.id, id));
      await recordAudit(tx, ctx, { action: 'formulary.update', entityType: 'formulary_item', entityId: id });
      return id;
    });
    return (await readFormularyItem(deps.db, savedId))!;
  } catch (error) {
    // Two saves of the same name at once: the second meets the unique index.
    if (sqlStateOf(error) === '23505') throw DUPLICATE_ITEM();
    throw error;
  }
}

/** Adds a code of the clinic's own; one already in the list (shipped or added) is a 409. */
export async function addConditionCode(deps: Deps, ctx: SignedInContext, input: TNewConditionCode): Promise<TConditionCode> {
  return inTransaction(deps, async (tx) => {
    const now = deps.config.now();
    const [row] = await tx
      .insert(conditionCodes)
      .values({ code: input.code, title: input.title, source: 'clinic', createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new HttpError('record.conflict', { message: `${input.code} is already in the list` });
    await recordAudit(tx, ctx, { action: 'formulary.code_create', entityType: 'condition_code', entityId: row.code });
    return conditionCodeOf(row);
  });
}

/** Retires or restores a code, or renames one of the clinic's own (a shipped code's title is ICD-10-CM's). */
export async function changeConditionCode(deps: Deps, ctx: SignedInContext, code: string, input: TChangeConditionCode): Promise<TConditionCode> {
  return inTransaction(deps, async (tx) => {
    const current = await lockConditionCode(tx, code.toUpperCase());
    if (!current) throw notFound('Condition code not found');
    if (input.updatedAt !== undefined && input.updatedAt !== current.updatedAt.toISOString()) throw stale();
    if (input.title !== undefined && input.title !== current.title && current.source !== 'clinic')
      throw invalid('title', "A shipped code keeps ICD-10-CM's title: retire it and add your own code instead");
    const [row] = await tx
      .update(conditionCodes)
      .set({ title: input.title ?? current.title, isActive: input.isActive ?? current.isActive, updatedAt: deps.config.now() })
      .where(eq(conditionCodes.code, current.code))
      .returning();
    await recordAudit(tx, ctx, { action: 'formulary.code_update', entityType: 'condition_code', entityId: current.code });
    return conditionCodeOf(row!);
  });
}
