import { sql, type SQL } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { TAuditAction, TAuditEntityType, TAuditOutcome, TChangeAction } from '#domain/audit';
import { preparedRows, type Queryable } from '../db/database.ts';
import type { RequestContext } from '../http/request-context.ts';

/** A row of the trail. */
export interface AuditRow {
  action: TAuditAction;
  entityType: TAuditEntityType;
  entityId?: string | null;
  /** The one patient the event concerns. */
  patientId?: string | null;
  /** Every patient a list showed: one row for the request, still found by "who saw patient X". */
  patientIds?: string[];
  /** Absent for what was allowed; otherwise why the attempt was refused. */
  outcome?: TAuditOutcome;
}

/**
 * What a service records: a change (or a refused sign-in), or a refusal of any route. An
 * allowed read is not among them: the scoped reader (server/scope/reader.ts) records those.
 */
export type AuditEvent = (AuditRow & { action: TChangeAction }) | (AuditRow & { outcome: Exclude<TAuditOutcome, 'allowed'> });

export type { TAuditOutcome };

/**
 * Appends to the audit trail, as the caller of the request context. Call it with the same
 * transaction as the change it records, so a change and its record land together or not at all.
 */
export function recordAudit(q: Queryable, ctx: RequestContext, events: AuditEvent | AuditEvent[]): Promise<void> {
  return writeAuditRows(q, ctx, Array.isArray(events) ? events : [events]);
}

/** A row's columns as the insert takes them (json_to_recordset below). */
interface AuditValues {
  actor_id: string | null;
  action: string;
  entity_type: string;
  entity_id: string | null;
  patient_id: string | null;
  patient_ids: string[] | null;
  outcome: string;
  ip: string | null;
  user_agent: string | null;
  break_glass_id: string | null;
}

/**
 * The break-glass grant an access is made under (issue 33): the caller's grant for the row's
 * patient, or for one of the patients a list showed. Rows under none carry none.
 */
function grantOf(ctx: RequestContext, row: Pick<AuditRow, 'patientId' | 'patientIds'>): string | null {
  if (!ctx.breakGlass || ctx.breakGlass.size === 0) return null;
  for (const id of [row.patientId, ...(row.patientIds ?? [])]) if (id && ctx.breakGlass.has(id)) return ctx.breakGlass.get(id)!;
  return null;
}

/** The rows one insert writes at most; a longer queue goes in several. */
const MAX_BATCH_ROWS = 500;

/**
 * The insert itself. Only this file and the scoped reader write rows (ESLint holds the line).
 * In a transaction it is a statement of that transaction. Outside one (a read's row, a refusal)
 * it joins the rows other requests are writing at the same moment: one insert, one commit, one
 * round trip for all of them, and each caller returns only once its row is committed. A read's
 * record is never lost that way (nothing is sent before it is written), and under load the app
 * makes one round trip for many requests instead of one each: on PostgreSQL each statement's
 * socket write was the largest cost of the app's hottest route (docs/decisions/request-path.md).
 */
export async function writeAuditRows(q: Queryable, ctx: RequestContext, list: AuditRow[]): Promise<void> {
  if (list.length === 0) return;
  const rows = list.map((e): AuditValues => ({
    actor_id: ctx.user?.id ?? null,
    action: e.action,
    entity_type: e.entityType,
    entity_id: e.entityId ?? null,
    patient_id: e.patientId ?? null,
    patient_ids: e.patientIds ?? null,
    outcome: e.outcome ?? 'allowed',
    ip: ctx.ip,
    user_agent: ctx.userAgent?.slice(0, 500) ?? null,
    break_glass_id: grantOf(ctx, e),
  }));
  if (q instanceof PgTransaction) return insertRows(q, rows);
  let batch = batches.get(q);
  if (!batch) batches.set(q, (batch = batchWriter(q)));
  return batch(rows);
}

/** One insert of any number of rows, always the same statement (prepared once per connection). */
async function insertRows(q: Queryable, rows: AuditValues[]): Promise<void> {
  await preparedRows(
    q,
    'record_audit',
    sql`
    insert into audit_events (actor_id, action, entity_type, entity_id, patient_id, patient_ids, outcome, ip, user_agent, break_glass_id)
    select actor_id, action, entity_type, entity_id, patient_id, patient_ids, outcome, ip, user_agent, break_glass_id
    from json_to_recordset(${JSON.stringify(rows)}::json) as r(actor_id uuid, action text, entity_type text, entity_id text,
      patient_id uuid, patient_ids uuid[], outcome text, ip text, user_agent text, break_glass_id uuid)`,
  );
}

const batches = new WeakMap<Queryable, (rows: AuditValues[]) => Promise<void>>();

/** Inserts on their way at once, per app instance: the next batch need not wait for the last one's commit. */
const WRITERS = 3;

/**
 * Writes the rows given while inserts are on their way with the next one. A caller's insert
 * starts at once while fewer than WRITERS are on their way (no waiting at low load); callers
 * arriving meanwhile queue for the next one free. A batch that fails is retried caller by caller,
 * so one bad row fails only its own request.
 */
function batchWriter(db: Queryable): (rows: AuditValues[]) => Promise<void> {
  type Waiter = { rows: AuditValues[]; resolve: () => void; reject: (error: unknown) => void };
  let queue: Waiter[] = [];
  let writing = 0;
  async function write() {
    writing += 1;
    while (queue.length > 0) {
      let [count, size] = [0, 0];
      while (count < queue.length && (count === 0 || size + queue[count]!.rows.length <= MAX_BATCH_ROWS)) size += queue[count++]!.rows.length;
      const batch = queue.slice(0, count);
      queue = queue.slice(count);
      try {
        await insertRows(
          db,
          batch.flatMap((w) => w.rows),
        );
        for (const w of batch) w.resolve();
      } catch (error) {
        if (batch.length === 1) batch[0]!.reject(error);
        else await Promise.all(batch.map((w) => insertRows(db, w.rows).then(w.resolve, w.reject)));
      }
    }
    writing -= 1;
  }
  return (rows) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ rows, resolve, reject });
      if (writing < WRITERS) void write();
    });
}

/**
 * The caller's columns of an audit row (actor_id, action, entity_type), then ip, user_agent and
 * break_glass_id at the end, for a statement that writes its audit row itself: `insert into
 * audit_events (actor_id, action, entity_type, <yours>, ip, user_agent, break_glass_id) select
 * <head>, <yours>, <tail(the patients shown)>`. Used where the read and its record must be one
 * round trip (lists).
 */
export function auditColumns(ctx: RequestContext, action: TAuditAction, entityType: TAuditEntityType): { head: SQL; tail: (patientIds: SQL) => SQL } {
  const grants = [...(ctx.breakGlass ?? new Map<string, string>())];
  const grant = (patientIds: SQL) =>
    grants.length === 0
      ? sql`null::uuid`
      : sql`(select v.grant_id from (values ${sql.join(
          grants.map(([patient, id]) => sql`(${patient}::uuid, ${id}::uuid)`),
          sql`, `,
        )}) v(patient_id, grant_id) where v.patient_id = any(${patientIds}) limit 1)`;
  return {
    head: sql`${ctx.user?.id ?? null}::uuid, ${action}, ${entityType}`,
    tail: (patientIds) => sql`${ctx.ip}, ${ctx.userAgent?.slice(0, 500) ?? null}, ${grant(patientIds)}`,
  };
}
