import { and, eq, sql } from 'drizzle-orm';
import { can } from '#domain/permissions';
import type { TCreatePatient, TPatient, TUpdatePatient } from '#domain/patients';
import type { Deps } from '../../deps.ts';
import { patients } from '../../db/schema/clinical.ts';
import { conflict, forbidden, invalid, notFound } from '../../http/errors.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { actorOf, recordAudit } from '../audit/audit.ts';
import {
  countPatients, decodeCursor, TRIGRAM_MIN_LENGTH, encodeCursor, findPatient, findPossibleDuplicates, listPatients, toPatient,
} from './patients.queries.ts';

export interface PatientPage {
  patients: TPatient[];
  /** On the first page always; on later pages when it came cheap (see below). */
  total: number | null;
  nextCursor: string | null;
}

/** A page of active patients; every patient shown is recorded in the audit trail. */
export async function listPatientsFor(deps: Deps, ctx: RequestContext, query: { search?: string | undefined; limit: number; cursor?: string | undefined }): Promise<PatientPage> {
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  if (query.cursor && !after) {
    throw invalid('cursor', 'Invalid cursor');
  }
  const search = query.search || undefined;
  // A trigram term is counted first on every page: the count is cheap through the trigram
  // indexes and tells listPatients which plan fits. Without one, counting reads every active
  // patient, so only the first page pays for it.
  const countEveryPage = !!search && search.length >= TRIGRAM_MIN_LENGTH;
  return deps.db.transaction(async (tx) => {
    const total = countEveryPage || !after ? await countPatients(tx, search) : null;
    const { page, next } = await listPatients(tx, { search, limit: query.limit, after, matches: countEveryPage ? total : null });
    await recordAudit(tx, actorOf(ctx), page.map((p) => ({ action: 'patient.list', entityType: 'patient', entityId: p.id, patientId: p.id })));
    return { patients: page.map(toPatient), total, nextCursor: next ? encodeCursor(next) : null };
  });
}

export async function getPatientFor(deps: Deps, ctx: RequestContext, id: string): Promise<TPatient> {
  return deps.db.transaction(async (tx) => {
    const row = await findPatient(tx, id);
    if (!row) throw notFound('Patient not found');
    await recordAudit(tx, actorOf(ctx), { action: 'patient.read', entityType: 'patient', entityId: id, patientId: id });
    return toPatient(row);
  });
}

export async function createPatient(deps: Deps, ctx: RequestContext, input: TCreatePatient): Promise<TPatient> {
  const { confirmDuplicate, ...fields } = input;
  const now = deps.config.now();
  return deps.db.transaction(async (tx) => {
    if (!confirmDuplicate) {
      const duplicates = await findPossibleDuplicates(tx, fields);
      if (duplicates.length > 0) {
        throw conflict('A patient with the same name and date of birth already exists', { duplicates });
      }
    }
    const [row] = await tx.insert(patients).values({ ...fields, createdAt: now, updatedAt: now }).returning();
    await recordAudit(tx, actorOf(ctx), { action: 'patient.create', entityType: 'patient', entityId: row!.id, patientId: row!.id });
    return toPatient(row!);
  });
}

export async function updatePatient(deps: Deps, ctx: RequestContext, id: string, input: TUpdatePatient): Promise<TPatient> {
  const { updatedAt: expected, ...changes } = input;
  if (changes.isActive !== undefined && !can(ctx.user, 'patients.deactivate')) throw forbidden();
  const now = deps.config.now();
  return deps.db.transaction(async (tx) => {
    const current = await findPatient(tx, id);
    if (!current) throw notFound('Patient not found');
    const guard = expected
      ? sql`date_trunc('milliseconds', ${patients.updatedAt}) = ${expected}::timestamptz`
      : sql`true`;
    const [row] = await tx.update(patients).set({ ...changes, updatedAt: now })
      .where(and(eq(patients.id, id), guard)).returning();
    if (!row) throw conflict('This patient was changed by someone else. Reload to see their changes, then edit again.');
    const action = changes.isActive === false ? 'patient.deactivate' : changes.isActive === true ? 'patient.reactivate' : 'patient.update';
    await recordAudit(tx, actorOf(ctx), { action, entityType: 'patient', entityId: id, patientId: id });
    return toPatient(row);
  });
}
