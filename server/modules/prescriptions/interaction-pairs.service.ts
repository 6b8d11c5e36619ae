import { eq } from 'drizzle-orm';
import type { TFieldError } from '#domain/errors';
import type { TChangeInteractionPair, TInteractionPair, TInteractionPairs, TNewInteractionPair, TShippedInteractionPair } from '#domain/interaction-pairs';
import { recordAudit } from '../../audit/audit-writer.ts';
import type { Queryable, Tx } from '../../db/database.ts';
import { clinicInteractionPairs } from '../../db/schema/prescriptions.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { invalidFields, notFound, stale } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { INTERACTION_CLASSES, INTERACTION_PAIRS, type TInteractionClass, type TInteractionPair as TCheckPair } from './checks/interaction-pairs.ts';
import { SHIPPED_TABLES, type TCheckTables } from './checks/prescription-checks.ts';
import {
  activeClinicPairs,
  interactionPairOf,
  listInteractionPairs,
  lockInteractionPair,
  unknownIngredients,
  type TClinicPair,
} from './interaction-pairs.queries.ts';

/**
 * The clinic's own drug–drug interaction pairs (issue 52; docs/decisions/prescriptions.md),
 * edited by an admin (formulary.manage) beside the shipped ones, which are code. They name no
 * patient: read unaudited; every change audited. A pair is retired, never deleted. The checks
 * read the active ones each time they run, so a change holds from the next check on.
 */

const classOf = (key: string) => INTERACTION_CLASSES.find((c) => c.key === key)!;

/** The shipped pairs as the admin reads them: each class by its name and ingredients. */
const SHIPPED_PAIRS: TShippedInteractionPair[] = INTERACTION_PAIRS.map((pair) => ({
  nameA: classOf(pair.a).name,
  ingredientsA: [...classOf(pair.a).ingredients],
  nameB: classOf(pair.b).name,
  ingredientsB: [...classOf(pair.b).ingredients],
  severity: pair.severity,
  effect: pair.effect,
  source: pair.source,
}));

/** GET /api/admin/interaction-pairs: the shipped pairs, read-only, and the clinic's, active first. */
export async function interactionPairsOf(deps: Deps): Promise<TInteractionPairs> {
  return { shipped: SHIPPED_PAIRS, clinic: await listInteractionPairs(deps.db) };
}

/**
 * The tables the checks run with: the shipped ones and the clinic's active pairs, each pair as two
 * classes of its own (`clinic:<id>:a`, `:b`) and one pair whose alert reads 'clinic'.
 */
export async function checkTablesOf(q: Queryable): Promise<TCheckTables> {
  const pairs = await activeClinicPairs(q);
  if (pairs.length === 0) return SHIPPED_TABLES;
  return {
    ...SHIPPED_TABLES,
    interactionClasses: [...SHIPPED_TABLES.interactionClasses, ...pairs.flatMap(classesOfPair)],
    interactionPairs: [...SHIPPED_TABLES.interactionPairs, ...pairs.map(checkPairOf)],
  };
}

const classesOfPair = (pair: TClinicPair): TInteractionClass[] => [
  { key: `clinic:${pair.id}:a`, name: pair.nameA, ingredients: pair.ingredientsA },
  { key: `clinic:${pair.id}:b`, name: pair.nameB, ingredients: pair.ingredientsB },
];
const checkPairOf = (pair: TClinicPair): TCheckPair => ({
  a: `clinic:${pair.id}:a`,
  b: `clinic:${pair.id}:b`,
  severity: pair.severity,
  effect: pair.effect,
  source: 'clinic',
});

/**
 * Each ingredient a pair names must be one of the formulary's (offered or retired): a typo would
 * match nothing and raise nothing, silently. Those it already names (`kept`) pass as they are.
 */
async function refuseUnknownIngredients(tx: Tx, sides: { ingredientsA?: string[]; ingredientsB?: string[] }, kept: ReadonlySet<string>) {
  const named = (['ingredientsA', 'ingredientsB'] as const).flatMap((side) => (sides[side] ?? []).map((name, i) => ({ path: `${side}.${i}`, name })));
  const unknown = await unknownIngredients(tx, [...new Set(named.map((n) => n.name).filter((n) => !kept.has(n)))]);
  const errors: TFieldError[] = named
    .filter((n) => unknown.has(n.name))
    .map((n) => ({ path: n.path, message: `'${n.name}' is not an ingredient of the formulary: add a medication that holds it first, or check the spelling` }));
  if (errors.length > 0) throw invalidFields(errors);
}

/** POST /api/admin/interaction-pairs. */
export async function addInteractionPair(deps: Deps, ctx: SignedInContext, input: TNewInteractionPair): Promise<TInteractionPair> {
  return inTransaction(deps, async (tx) => {
    await refuseUnknownIngredients(tx, input, new Set());
    const now = deps.config.now();
    const [row] = await tx
      .insert(clinicInteractionPairs)
      .values({ ...input, createdById: ctx.user.id, createdAt: now, updatedAt: now })
      .returning();
    await recordAudit(tx, ctx, { action: 'interaction.create', entityType: 'interaction_pair', entityId: row!.id });
    return interactionPairOf(row!);
  });
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** PUT /api/admin/interaction-pairs/{id}: the fields sent replace the pair's; retired or restored by isActive. Nothing changed, nothing written. */
export async function changeInteractionPair(deps: Deps, ctx: SignedInContext, id: string, input: TChangeInteractionPair): Promise<TInteractionPair> {
  const { updatedAt, ...fields } = input;
  return inTransaction(deps, async (tx) => {
    const current = await lockInteractionPair(tx, id);
    if (!current) throw notFound('Interaction pair not found');
    if (updatedAt !== undefined && updatedAt !== current.updatedAt.toISOString()) throw stale();
    const next = { ...current, ...fields };
    const changed =
      (['nameA', 'nameB', 'severity', 'effect', 'isActive'] as const).some((k) => next[k] !== current[k]) ||
      !sameList(next.ingredientsA, current.ingredientsA) ||
      !sameList(next.ingredientsB, current.ingredientsB);
    if (!changed) return interactionPairOf(current);
    await refuseUnknownIngredients(tx, fields, new Set([...current.ingredientsA, ...current.ingredientsB]));
    // Strictly later than the version read, so a second writer holding it is refused.
    const now = new Date(Math.max(deps.config.now().getTime(), current.updatedAt.getTime() + 1));
    const [row] = await tx
      .update(clinicInteractionPairs)
      .set({ ...fields, updatedAt: now })
      .where(eq(clinicInteractionPairs.id, id))
      .returning();
    await recordAudit(tx, ctx, { action: 'interaction.update', entityType: 'interaction_pair', entityId: id });
    return interactionPairOf(row!);
  });
}
