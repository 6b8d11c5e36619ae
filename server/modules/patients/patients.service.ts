import { and, eq, sql } from 'drizzle-orm';
import {
  PATIENT_PAGE,
  ZPatientList,
  type TCreatePatient,
  type TPatient,
  type TPatientField,
  type TPatientFieldName,
  type TPatientListItem,
  type TUpdatePatient,
} from '#domain/patients';
import type { TPage } from '#domain/paging';
import { mayChangePatientField } from '#domain/record-scope';
import { can } from '#domain/permissions';
import { countsFor } from '../../clinic/clinic-counts.ts';
import { allergySummaryFor } from '../chart/chart.service.ts';
import type { Deps, TSharedPatientPage } from '../../deps.ts';
import { boundedReads } from '../../db/bounded-reads.ts';
import { takePage } from '../../db/keyset.ts';
import { inTransaction } from '../../db/transaction.ts';
import { patients } from '../../db/schema/clinical.ts';
import { forbidden, HttpError, invalid, notFound, stale } from '../../http/errors.ts';
import type { TServedPage } from '../../http/paging.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { reader, readOf, type Reading } from '../../scope/reader.ts';
import { noticePossibleRestrictedDuplicate } from './patients.notices.ts';
import { type ReadScope } from '../../scope/read-scope.ts';
import { writerOf } from '../../scope/writer.ts';
import {
  decodePatientCursor,
  findPossibleDuplicates,
  findSeenPatient,
  isRestrictedPatient,
  listPatients,
  readPatients,
  readPatientsAudited,
  toPatient,
} from './patients.queries.ts';
import { countSearchCapped, decodeSearchCursor, searchPageKeys } from './patient-search.queries.ts';

const NOT_FOUND = 'Patient not found';

/** How long a client waits before trying a stopped search again. */
const SEARCH_RETRY_AFTER_SECONDS = 2;

type TListQuery = { search?: string | null | undefined; limit: number; cursor?: string | undefined; fields?: TPatientField[] | undefined };

/** The reads of patient records: every one to those who read patient records (the route's capability). */
export const PATIENT_READS = {
  /**
   * A page of active patients, in name order or (given a term) the search's tiers, recorded once
   * in the audit trail with every patient shown. `signal` aborts when the client has gone, which
   * stops a search still running.
   */
  list: readOf({
    action: 'patient.list',
    entityType: 'patient',
    run: async (
      { deps, auditInStatement, scope },
      { query, signal }: { query: TListQuery; signal?: AbortSignal | undefined },
    ): Promise<TServedPage<TPatientListItem>> => {
      const search = query.search || undefined;
      const page = search
        ? scope.restrictedReach
          ? await searchPage(deps, scope, auditInStatement, search, query, signal)
          : await sharedSearchPage(deps, scope, search, query, signal)
        : query.cursor || scope.restrictedReach
          ? await pageFor(deps, scope, query)
          : await firstPageFor(deps, scope, query.limit);
      if (!query.fields) return page;
      const fields = ['id', ...query.fields] as const;
      return { ...page, encoded: undefined, items: page.items.map((p) => Object.fromEntries(fields.map((f) => [f, p[f]])) as TPatientListItem) };
    },
    shows: (page) => (page.items.length > 0 ? { patientIds: page.items.map((p) => p.id) } : null),
  }),
  get: readOf({
    action: 'patient.read',
    entityType: 'patient',
    notFound: NOT_FOUND,
    run: async ({ db, scope }, id: string) => {
      const row = await findSeenPatient(db, scope.patientRowSeen, id);
      if (!row && (await isRestrictedPatient(db, id))) throw new HttpError('record.restricted');
      if (!row) return null;
      // The allergy banner comes with her, for those who see it (issue 51).
      return can(scope.viewer, 'chart.banner') ? { ...toPatient(row), allergySummary: await allergySummaryFor(db, id) } : toPatient(row);
    },
    shows: (_patient, id) => ({ entityId: id, patientId: id }),
  }),
  /**
   * Before a new record: the patients it may duplicate (same name and birth date). Only those
   * the caller sees are shown, and recorded as shown; a restricted one outside her reach is
   * never named to her, not even as "someone like this exists".
   */
  duplicates: readOf({
    action: 'patient.duplicates',
    entityType: 'patient',
    run: ({ db, scope }, fields: { firstName: string; lastName: string; dateOfBirth: string | null; confirmed: boolean }) =>
      findPossibleDuplicates(db, scope.patientRowSeen, fields),
    // Confirmed already (she saw them on the first try): this answer shows no one.
    shows: ({ shown }, { confirmed }) => (!confirmed && shown.length > 0 ? { patientIds: shown.map((p) => p.id) } : null),
  }),
};

/**
 * A search's page in the caller's scope (docs/decisions/patient-search.md): the page's keys tier
 * by tier, with the capped total on the first page, each statement bounded (one that runs past
 * the timeout, or that nobody waits for any more, is stopped and answered 503).
 */
async function findSearchPage(deps: Deps, scope: ReadScope, term: string, query: TListQuery, signal: AbortSignal | undefined) {
  const after = query.cursor ? decodeSearchCursor(query.cursor) : null;
  const bounds = {
    timeoutMs: deps.config.searchTimeoutMs,
    signal,
    stopped: () => new HttpError('search.timeout', { headers: { 'retry-after': String(SEARCH_RETRY_AFTER_SECONDS) } }),
  };
  const cap = PATIENT_PAGE.totalCap;
  return boundedReads(deps.db, bounds, async (q) => {
    const { keys, tierZeroCount } = await searchPageKeys(q, term, after, query.limit, after ? null : cap, scope.patientRowSeen);
    const { page, nextCursor } = takePage(keys, query.limit, (k) => k);
    // A first page that holds every match has counted them already.
    const counted = after
      ? null
      : nextCursor
        ? await countSearchCapped(q, term, cap, tierZeroCount, scope.patientRowSeen)
        : { total: page.length, capped: false };
    return { ids: page.map((k) => k[3]), total: counted?.total ?? null, totalCapped: counted?.capped ?? false, nextCursor };
  });
}

/**
 * A search page for a reader who reaches restricted patients: hers alone, read with its audit
 * row in one statement that commits at once (one round trip for both). Nothing is sent unless
 * the row is written.
 */
async function searchPage(
  deps: Deps,
  scope: ReadScope,
  auditInStatement: Reading['auditInStatement'],
  term: string,
  query: TListQuery,
  signal: AbortSignal | undefined,
): Promise<TServedPage<TPatient>> {
  const { ids, ...found } = await findSearchPage(deps, scope, term, query, signal);
  const rows = await readPatientsAudited(deps.db, auditInStatement(), ids, scope.patientRowSeen);
  return { ...found, items: rows.map(toPatient) };
}

/**
 * A search page for everyone else, who all see the same answer (no restricted patient in it):
 * read once for the requests asking it at the same moment or within a few seconds, as the first
 * page is (deps.patientPages, cleared by every patient change). When a patient changes, every
 * open list refetches at once; they share one search instead of each running six statements.
 * Each request still writes its own audit row (the reader's). The search stops only once every
 * request waiting for it has gone.
 */
async function sharedSearchPage(deps: Deps, scope: ReadScope, term: string, query: TListQuery, signal: AbortSignal | undefined) {
  const key = `search ${query.limit} ${query.cursor ?? ''} ${term}`;
  return deps.patientPages.get(
    key,
    async (nobodyWaits) => {
      const { ids, ...found } = await findSearchPage(deps, scope, term, query, nobodyWaits);
      return encodeOnce({ ...found, items: (await readPatients(deps.db, ids, scope.patientRowSeen)).map(toPatient) });
    },
    signal,
  );
}

/** A page shared by many requests, checked against the route's response schema and encoded once for all of them. */
const encodeOnce = (page: TPage<TPatient>): TSharedPatientPage => ({ ...page, encoded: JSON.stringify(ZPatientList.parse(page.items)) });

/**
 * A page of the unfiltered list read for this reader alone: a later page, or any page of someone
 * who reaches restricted patients (the shared first page leaves them out). Its audit row is
 * written after it, as for every read.
 */
async function pageFor(deps: Deps, scope: ReadScope, query: TListQuery): Promise<TServedPage<TPatient>> {
  const after = query.cursor ? decodePatientCursor(query.cursor) : null;
  const { page, nextCursor } = await listPatients(deps.db, scope, { limit: query.limit, after });
  return { items: page.map(toPatient), total: after ? null : (await countsFor(deps.counts, deps.db, scope)).activePatients, nextCursor };
}

/**
 * The unfiltered list's first page, the one every screen opens on: read once for everyone
 * (deps.patientPages, cleared by every patient change), with its total from the clinic's counts.
 * Each request still writes its own audit row, naming every patient it was shown.
 */
async function firstPageFor(deps: Deps, scope: ReadScope, limit: number): Promise<TServedPage<TPatient>> {
  const [page, counts] = await Promise.all([
    // Shared only among readers who reach no restricted patient: it holds none.
    deps.patientPages.get(`list ${limit}`, async () => {
      const { page: rows, nextCursor } = await listPatients(deps.db, scope, { limit });
      return encodeOnce({ items: rows.map(toPatient), total: null, nextCursor });
    }),
    deps.counts.get(),
  ]);
  return { items: page.items, total: counts.activePatients, nextCursor: page.nextCursor, encoded: page.encoded };
}

/**
 * Forgets what is shared about patients (the first page, the clinic's counts): the patient
 * events call it as they commit, on every instance (app.ts), so the writer's next list shows
 * the change and no other instance keeps the old one.
 */
export function forgetPatientReads(deps: Pick<Deps, 'patientPages' | 'counts'>): void {
  deps.patientPages.clear();
  deps.counts.clear();
}

/**
 * A new patient. Unless the caller confirms it, one with the name and birth date of a patient she
 * sees is refused with those patients (409 `patient.duplicate`), read and audited by her reader.
 * One matching only a restricted patient she may not see is created as if there were none (she
 * learns nothing of that patient), and every admin is told, to see whether it is the same person.
 */
export async function createPatient(deps: Deps, ctx: SignedInContext, input: TCreatePatient): Promise<TPatient> {
  const { confirmDuplicate, ...fields } = input;
  const now = deps.config.now();
  const likely = await reader(deps, ctx)(PATIENT_READS.duplicates, { ...fields, confirmed: Boolean(confirmDuplicate) });
  if (!confirmDuplicate && likely.shown.length > 0) throw new HttpError('patient.duplicate', { extra: { duplicates: likely.shown } });
  return inTransaction(deps, async (tx, raise) => {
    const [row] = await tx
      .insert(patients)
      .values({ ...fields, createdAt: now, updatedAt: now })
      .returning();
    await recordAudit(tx, ctx, { action: 'patient.create', entityType: 'patient', entityId: row!.id, patientId: row!.id });
    if (likely.unseen.length > 0) await noticePossibleRestrictedDuplicate(tx, raise, row!.id, likely.unseen);
    raise({ type: 'patient.created', patientId: row!.id, actorId: ctx.user.id });
    return toPatient(row!);
  });
}

type TPatientChanges = Partial<Pick<TPatient, TPatientFieldName | 'isActive'>>;

/**
 * Changes the fields sent that differ from the record. A client may send back the record it
 * read: read-only fields are ignored, `id` must be this record, and fields sent unchanged need
 * no right to change them. Nothing changed means nothing written, not even `updatedAt`.
 */
export async function updatePatient(deps: Deps, ctx: SignedInContext, id: string, input: TUpdatePatient): Promise<TPatient> {
  const { id: sentId, createdAt: _ignored, updatedAt: version, restricted: _restricted, ...fields } = input;
  if (sentId !== undefined && sentId !== id) throw invalid('id', 'Must be the id of the patient in the path');
  const now = deps.config.now();
  return inTransaction(deps, async (tx, raise) => {
    const current = await writerOf(tx, ctx, now).patient(id);
    if (!current) throw notFound(NOT_FOUND);
    const changes = changedFields(toPatient(current), fields);
    if (Object.keys(changes).some((field) => !mayChangePatientField(ctx.user, field))) throw forbidden();
    if (Object.keys(changes).length === 0) return toPatient(current);

    const guard = version ? sql`date_trunc('milliseconds', ${patients.updatedAt}) = ${version}::timestamptz` : sql`true`;
    const [row] = await tx
      .update(patients)
      .set({ ...changes, updatedAt: now })
      .where(and(eq(patients.id, id), guard))
      .returning();
    if (!row) throw stale('This patient was changed by someone else. Reload to see their changes, then edit again.');
    const action = changes.isActive === false ? 'patient.deactivate' : changes.isActive === true ? 'patient.reactivate' : 'patient.update';
    await recordAudit(tx, ctx, { action, entityType: 'patient', entityId: id, patientId: id });
    raise({ type: 'patient.updated', patientId: id, actorId: ctx.user.id });
    return toPatient(row);
  });
}

function changedFields(current: TPatient, sent: TPatientChanges): TPatientChanges {
  return Object.fromEntries(Object.entries(sent).filter(([field, value]) => value !== undefined && current[field as keyof TPatientChanges] !== value));
}
