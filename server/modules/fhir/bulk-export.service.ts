import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Resource } from '@medplum/fhirtypes';
import { BULK_FILE_HOURS, BULK_PAGE_ROWS, BULK_STALE_SECONDS, type TBulkLevel } from '#domain/bulk-export';
import type { TFhirResourceType } from '#domain/fhir';
import { recordAudit } from '../../audit/audit-writer.ts';
import { rowsOf } from '../../db/typed-rows.ts';
import { bulkExports, patientGroups, type TBulkExportFile } from '../../db/schema/bulk-export.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { loggableError } from '../../http/loggable-error.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { reader, readOf } from '../../scope/reader.ts';
import type { TSearchBase } from './fhir-params.ts';
import type { TFoundPage } from './fhir-search.ts';
import { FHIR_READS } from './fhir.service.ts';

/**
 * FHIR Bulk Data export (Bulk Data Access 2.0; docs/decisions/fhir.md): a kick-off records the
 * export and starts it in the background; it reads each type page by page through the same
 * scoped, audited searches as `GET /fhir/R4/{type}` (so it sees what its requester sees and the
 * trail names every patient it read), streaming each type into one encrypted NDJSON object.
 * Memory holds one page at a time, however large the clinic.
 */

export interface TKickOff {
  level: TBulkLevel;
  groupId: string | null;
  types: TFhirResourceType[];
  since: Date | null;
  request: string;
}
type TJob = typeof bulkExports.$inferSelect;

/** Exports running in this process, by id: what a test awaits, and what a cancellation stops at once. */
const runs = new Map<string, Promise<void>>();
/** Settles when the export's run in this process has ended (at once when none runs here). */
export const bulkExportSettled = (id: string): Promise<void> => runs.get(id) ?? Promise.resolve();

/** Whose export it is: the person and, when a client's token asked, that client (a session never reads a client's export, nor the reverse). */
const owned = (ctx: SignedInContext) =>
  and(eq(bulkExports.requestedBy, ctx.user.id), sql`${bulkExports.clientId} is not distinct from ${ctx.apiClient?.id ?? null}::uuid`);

/** Starts an export; one at a time per requester (a second while one runs is a 429 to retry later). */
export async function startBulkExport(deps: Deps, ctx: SignedInContext, kick: TKickOff, log: FastifyBaseLogger): Promise<string> {
  const now = deps.config.now();
  const id = await inTransaction(deps, async (tx) => {
    const [running] = await tx
      .select({ id: bulkExports.id })
      .from(bulkExports)
      .where(and(owned(ctx), eq(bulkExports.status, 'in-progress')));
    if (running) throw new HttpError('bulk.busy', { headers: { 'retry-after': '60' } });
    if (kick.groupId) {
      const [group] = await tx.select({ id: patientGroups.id }).from(patientGroups).where(eq(patientGroups.id, kick.groupId));
      if (!group) throw notFound('Group not found');
    }
    const [row] = await tx
      .insert(bulkExports)
      .values({
        requestedBy: ctx.user.id,
        clientId: ctx.apiClient?.id ?? null,
        level: kick.level,
        groupId: kick.groupId,
        types: kick.types,
        since: kick.since,
        request: kick.request,
        transactionTime: now,
        heartbeatAt: now,
        progress: 'Queued',
      })
      .returning({ id: bulkExports.id });
    await recordAudit(tx, ctx, { action: 'fhir.bulk_export', entityType: 'bulk_export', entityId: row!.id });
    return row!.id;
  });
  const run = runExport(deps, ctx, id, log).finally(() => runs.delete(id));
  runs.set(id, run);
  return id;
}

/** Why a run stopped before its end: the export was cancelled (or swept) meanwhile. */
class ExportStopped extends Error {}

/** How often a run says it is alive (and looks for a cancellation); well under BULK_STALE_SECONDS. */
const BEAT_EVERY_MS = 2000;

async function runExport(deps: Deps, ctx: SignedInContext, id: string, log: FastifyBaseLogger): Promise<void> {
  const [job] = await deps.db.select().from(bulkExports).where(eq(bulkExports.id, id));
  if (!job) return;
  const read = reader(deps, ctx);
  const written: string[] = [];
  let lastBeat = -Infinity;
  try {
    const output: TBulkExportFile[] = [];
    let patients = 0;
    for (const [index, type] of job.types.entries()) {
      const objectKey = randomUUID();
      written.push(objectKey);
      let count = 0;
      const progress = `${index + 1} of ${job.types.length} types: ${type}`;
      const lines = async function* () {
        let cursor: string | null = null;
        do {
          // Every so often, before a page, it checks the export still runs and says it is alive: a
          // cancelled one stops here (and at the end of each type, whose output it writes only while
          // it runs). Not at every page: those updates were a tenth of a large export's time.
          if (performance.now() - lastBeat >= BEAT_EVERY_MS) {
            await beat(deps, id, progress, count);
            lastBeat = performance.now();
          }
          // A group's export carries that Group alone (its members' references resolve in it).
          const ids = type === 'Group' && job.groupId ? [job.groupId] : null;
          const search: TSearchBase = { ids, count: BULK_PAGE_ROWS, cursor, params: new Map(), bulk: { patientsIn: patientsOf(job) } };
          // A page of the type's search in the requester's scope, audited as that search is, naming its patients.
          const found: TFoundPage = await read(FHIR_READS[type as TFhirResourceType].search, search);
          const kept = job.since ? found.resources.filter((resource) => changedSince(resource, job.since!)) : found.resources;
          count += kept.length;
          if (kept.length) yield kept.map((resource) => JSON.stringify(resource)).join('\n') + '\n';
          cursor = found.nextCursor;
        } while (cursor);
      };
      await deps.files.storage.write(objectKey, Readable.from(lines()), { maxBytes: Number.MAX_SAFE_INTEGER });
      if (type === 'Patient') patients = count;
      // Bulk Data 2.0: a type with nothing to export has no file.
      if (count === 0) await deps.files.storage.remove(objectKey);
      else output.push({ type, objectKey, count });
      await whileRunning(deps, id, { output });
    }
    await whileRunning(deps, id, { status: 'complete', ...ended(deps), patientCount: job.types.includes('Patient') ? patients : null });
  } catch (error) {
    if (!(error instanceof ExportStopped)) {
      log.error({ err: loggableError(error), exportId: id }, 'bulk export failed');
      await endFailed(deps, id, 'The export could not be completed: ask for it again').catch(() => undefined);
    }
    // Nothing of an export that did not finish is kept.
    await Promise.all(written.map((key) => deps.files.storage.remove(key).catch(() => undefined)));
  }
}

/** The export's patients, as a subquery of ids: a group's members, or null for every patient in scope. */
const patientsOf = (job: TJob) =>
  job.level === 'group' && job.groupId ? sql`select patient_id from patient_group_members where group_id = ${job.groupId}::uuid` : null;

/** A resource changed at or after `since` (`_since`); one without meta.lastUpdated is kept. */
const changedSince = (resource: Resource, since: Date) => !resource.meta?.lastUpdated || new Date(resource.meta.lastUpdated) >= since;

/**
 * Writes to the export while it runs (and only then: a cancelled or swept one is left as it is),
 * throwing ExportStopped when it no longer runs. Each of the run's writes goes through here.
 */
async function whileRunning(deps: Deps, id: string, values: Partial<TJob>): Promise<void> {
  const [still] = await deps.db
    .update(bulkExports)
    .set(values)
    .where(and(eq(bulkExports.id, id), eq(bulkExports.status, 'in-progress')))
    .returning({ id: bulkExports.id });
  if (!still) throw new ExportStopped();
}

/** Marks the run alive with what it does. */
const beat = (deps: Deps, id: string, progress: string, count: number) =>
  whileRunning(deps, id, { heartbeatAt: deps.config.now(), progress: `${progress} (${count} so far)`.slice(0, 100) });

/** What an ended run's row says: when, and until when its files are kept. */
function ended(deps: Deps) {
  const now = deps.config.now();
  return { progress: null, completedAt: now, expiresAt: new Date(now.getTime() + BULK_FILE_HOURS * 3600_000) };
}

const endFailed = (deps: Deps, id: string, error: string) => whileRunning(deps, id, { status: 'failed', error, ...ended(deps) });

/** The caller's export, while its status may still be asked (not cancelled, not expired); null otherwise. */
export async function findBulkExport(deps: Deps, ctx: SignedInContext, id: string): Promise<TJob | null> {
  const [job] = await deps.db
    .select()
    .from(bulkExports)
    .where(and(eq(bulkExports.id, id), owned(ctx)));
  if (!job || job.status === 'cancelled' || (job.expiresAt && job.expiresAt <= deps.config.now())) return null;
  return job;
}

/**
 * DELETE on the status: a running export stops at its next page, a finished one's files are
 * removed at once, and its status is gone (404) from then on.
 */
export async function cancelBulkExport(deps: Deps, ctx: SignedInContext, id: string): Promise<void> {
  if (!(await findBulkExport(deps, ctx, id))) throw notFound('Export not found');
  // Its files as they are when it is ended, read under the row's lock: a run finishing meanwhile
  // waits, then finds it cancelled and removes what it wrote itself.
  const files = await inTransaction(deps, async (tx) => {
    const [row] = await tx.select({ output: bulkExports.output }).from(bulkExports).where(eq(bulkExports.id, id)).for('update');
    await tx.update(bulkExports).set({ status: 'cancelled', progress: null, output: [], completedAt: deps.config.now() }).where(eq(bulkExports.id, id));
    await recordAudit(tx, ctx, { action: 'fhir.bulk_cancel', entityType: 'bulk_export', entityId: id });
    return row?.output ?? [];
  });
  await Promise.all(files.map((file) => deps.files.storage.remove(file.objectKey)));
  await bulkExportSettled(id);
}

/** A file of a finished export, read by its requester: audited as a download of the export. */
export const BULK_FILE_READ = readOf({
  action: 'fhir.bulk_download',
  entityType: 'bulk_export',
  notFound: 'Export file not found',
  run: async ({ deps }, args: { ctx: SignedInContext; id: string; index: number }) => {
    const job = await findBulkExport(deps, args.ctx, args.id);
    return job?.status === 'complete' ? (job.output[args.index] ?? null) : null;
  },
  shows: (_file, args) => ({ entityId: args.id }),
});

/**
 * The sweep: removes the files of exports past their time (their status is gone with them), and
 * fails a run whose heartbeat stopped (its process ended), removing what it had written. Each row
 * is claimed by its update, so two instances never remove the same files twice.
 */
const ZSweptRow = z.object({ output: z.array(z.object({ type: z.string(), objectKey: z.string(), count: z.number() })) });

export async function sweepBulkExports(deps: Deps): Promise<void> {
  const now = deps.config.now().toISOString();
  const staleBefore = new Date(deps.config.now().getTime() - BULK_STALE_SECONDS * 1000).toISOString();
  const claimed = await rowsOf(
    deps.db,
    ZSweptRow,
    sql`with gone as (
        select id, output from bulk_exports
        where (expires_at < ${now}::timestamptz and jsonb_array_length(output) > 0)
          or (status = 'in-progress' and heartbeat_at < ${staleBefore}::timestamptz)
        for update skip locked)
      update bulk_exports b set output = '[]'::jsonb,
        status = case when b.status = 'in-progress' then 'failed' else b.status end,
        error = case when b.status = 'in-progress' then 'The export stopped when the server did: ask for it again' else b.error end,
        expires_at = case when b.status = 'in-progress' then ${now}::timestamptz else b.expires_at end,
        progress = null
      from gone where b.id = gone.id
      returning gone.output`,
  );
  for (const file of claimed.flatMap((row) => row.output)) await deps.files.storage.remove(file.objectKey);
}
