import { and, eq, sql } from 'drizzle-orm';
import { ZPatientList, type TCreatePatient, type TPatient, type TPatientFieldName, type TUpdatePatient } from '#domain/patients';
import { mayChangePatientField } from '#domain/record-scope';
import type { Deps } from '../../deps.ts';
import { inTransaction } from '../../db/transaction.ts';
import { patients } from '../../db/schema/clinical.ts';
import { forbidden, HttpError, invalid, notFound, stale } from '../../http/errors.ts';
import type { TServedPage } from '../../http/paging.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { auditColumns, recordAudit } from '../audit/audit.ts';
import {
  countPatients, decodePatientCursor, findPatient, findPossibleDuplicates, listPatientsAudited, toPatient, TRIGRAM_MIN_LENGTH,
} from './patients.queries.ts';

const NOT_FOUND = 'Patient not found';

/**
 * A page of active patients; the request is recorded once in the audit trail, with every
 * patient shown, by the same statement that reads the page.
 */
export async function listPatientsFor(deps: Deps, ctx: SignedInContext, query: { search?: string | null | undefined; limit: number; cursor?: string | undefined }): Promise<TServedPage<TPatient>> {
  const after = query.cursor ? decodePatientCursor(query.cursor) : null;
  const search = query.search || undefined;
  const audit = auditColumns(ctx, 'patient.list', 'patient');
  // A trigram term is counted first on every page: the count is cheap through the trigram
  // indexes and tells the page query which plan fits. A list with no term takes its total from
  // the clinic's counts; a 1-2 character term is counted on its first page only.
  if (!search && !after) return firstPageFor(deps, ctx, query.limit);
  const countEveryPage = !!search && search.length >= TRIGRAM_MIN_LENGTH;
  let total: number | null = null;
  if (countEveryPage || !after) total = await countPatients(deps.db, search);
  const { page, nextCursor } = await listPatientsAudited(deps.db, audit, { search, limit: query.limit, after, matches: countEveryPage ? total : null });
  return { items: page.map(toPatient), total, nextCursor };
}

/**
 * The unfiltered list's first page, the one every screen opens on: read once for everyone
 * (deps.patientPages, cleared by every patient change), with its total from the clinic's counts.
 * Each request still writes its own audit row, naming every patient it was shown.
 */
async function firstPageFor(deps: Deps, ctx: SignedInContext, limit: number): Promise<TServedPage<TPatient>> {
  const [page, counts] = await Promise.all([
    deps.patientPages.get(limit, async () => {
      const { page: rows, nextCursor } = await listPatientsAudited(deps.db, null, { limit });
      const items = rows.map(toPatient);
      // Checked against the route's response schema, and encoded, once for every request it serves.
      return { items, nextCursor, encoded: JSON.stringify(ZPatientList.parse(items)) };
    }),
    deps.counts.get(),
  ]);
  if (page.items.length > 0) {
    await recordAudit(deps.db, ctx, { action: 'patient.list', entityType: 'patient', patientIds: page.items.map((p) => p.id) });
  }
  return { items: page.items, total: counts.activePatients, nextCursor: page.nextCursor, encoded: page.encoded };
}

export async function getPatientFor(deps: Deps, ctx: SignedInContext, id: string): Promise<TPatient> {
  return deps.db.transaction(async (tx) => {
    const row = await findPatient(tx, id);
    if (!row) throw notFound(NOT_FOUND);
    await recordAudit(tx, ctx, { action: 'patient.read', entityType: 'patient', entityId: id, patientId: id });
    return toPatient(row);
  });
}

/**
 * Forgets what is shared about patients (the first page, the clinic's counts). The service calls
 * it right after its own commit, so the user's next list (a moment later) shows the change; the
 * patient events call it on every instance.
 */
export function forgetPatientReads(deps: Pick<Deps, 'patientPages' | 'counts'>): void {
  deps.patientPages.clear();
  deps.counts.clear();
}

export async function createPatient(deps: Deps, ctx: SignedInContext, input: TCreatePatient): Promise<TPatient> {
  const { confirmDuplicate, ...fields } = input;
  const now = deps.config.now();
  const created = await inTransaction(deps, async (tx, raise) => {
    if (!confirmDuplicate) {
      const duplicates = await findPossibleDuplicates(tx, fields);
      if (duplicates.length > 0) throw new HttpError('patient.duplicate', { extra: { duplicates } });
    }
    const [row] = await tx.insert(patients).values({ ...fields, createdAt: now, updatedAt: now }).returning();
    await recordAudit(tx, ctx, { action: 'patient.create', entityType: 'patient', entityId: row!.id, patientId: row!.id });
    raise({ type: 'patient.created', patientId: row!.id, actorId: ctx.user.id });
    return toPatient(row!);
  });
  forgetPatientReads(deps);
  return created;
}

type TPatientChanges = Partial<Pick<TPatient, TPatientFieldName | 'isActive'>>;

/**
 * Changes the fields sent that differ from the record. A client may send back the record it
 * read: read-only fields are ignored, `id` must be this record, and fields sent unchanged need
 * no right to change them. Nothing changed means nothing written, not even `updatedAt`.
 */
export async function updatePatient(deps: Deps, ctx: SignedInContext, id: string, input: TUpdatePatient): Promise<TPatient> {
  const { id: sentId, createdAt: _ignored, updatedAt: version, ...fields } = input;
  if (sentId !== undefined && sentId !== id) throw invalid('id', 'Must be the id of the patient in the path');
  const now = deps.config.now();
  let changed = false;
  const result = await inTransaction(deps, async (tx, raise) => {
    const current = await findPatient(tx, id);
    if (!current) throw notFound(NOT_FOUND);
    const changes = changedFields(toPatient(current), fields);
    if (Object.keys(changes).some((field) => !mayChangePatientField(ctx.user, field))) throw forbidden();
    if (Object.keys(changes).length === 0) return toPatient(current);

    const guard = version ? sql`date_trunc('milliseconds', ${patients.updatedAt}) = ${version}::timestamptz` : sql`true`;
    const [row] = await tx.update(patients).set({ ...changes, updatedAt: now }).where(and(eq(patients.id, id), guard)).returning();
    if (!row) throw stale('This patient was changed by someone else. Reload to see their changes, then edit again.');
    const action = changes.isActive === false ? 'patient.deactivate' : changes.isActive === true ? 'patient.reactivate' : 'patient.update';
    await recordAudit(tx, ctx, { action, entityType: 'patient', entityId: id, patientId: id });
    raise({ type: 'patient.updated', patientId: id, actorId: ctx.user.id });
    changed = true;
    return toPatient(row);
  });
  if (changed) forgetPatientReads(deps);
  return result;
}

function changedFields(current: TPatient, sent: TPatientChanges): TPatientChanges {
  return Object.fromEntries(Object.entries(sent).filter(([field, value]) =>
    value !== undefined && current[field as keyof TPatientChanges] !== value));
}
