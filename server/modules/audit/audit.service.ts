import { z } from 'zod';
import { addDays, startOfZonedDay, zonedDate } from '#domain/clinic-time';
import type { TAuditFilters, TAuditListQuery, TAuditRow, TSignedAuditHead } from '#domain/audit';
import type { Deps } from '../../deps.ts';
import { decodeCursor, encodeCursor } from '../../db/keyset.ts';
import { HttpError, invalid } from '../../http/errors.ts';
import type { TServedPage } from '../../http/paging.ts';
import type { Db } from '../../db/database.ts';
import { readOf } from '../../scope/reader.ts';
import { sealCommitted } from '../../audit/audit-sealer.ts';
import type { AuditHeadSigner } from '../../audit/audit-head.ts';
import { csvFile, csvLine, type TCsvFile } from '../../http/csv.ts';
import { lastSealedRow, listAuditActions, listAuditRows, type TAuditRowRead, type TAuditWhere } from './audit.queries.ts';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** Rows read per round trip while an export streams. */
const EXPORT_BATCH = 500;

/**
 * The filters as the queries take them. A bare date is a whole day in the clinic's time zone:
 * `from` its first instant, `to` up to (not including) the next day's first instant.
 */
export function auditWhere(deps: Deps, filters: TAuditFilters): TAuditWhere {
  const zone = deps.settings.current().timeZone;
  const fromAt = filters.from ? (DATE_ONLY.test(filters.from) ? startOfZonedDay(filters.from, zone) : new Date(filters.from)) : undefined;
  const toDate = filters.to && DATE_ONLY.test(filters.to);
  const toAt = filters.to ? (toDate ? startOfZonedDay(addDays(filters.to, 1), zone) : new Date(filters.to)) : undefined;
  if (fromAt && toAt && (toDate ? fromAt >= toAt : fromAt > toAt)) throw invalid('to', 'Must not be before from');
  return { actorId: filters.actorId, patientId: filters.patientId, action: filters.action, outcome: filters.outcome, fromAt, toAt, toInclusive: !toDate };
}

const actorName = (r: TAuditRowRead) => [r.actorFirstName, r.actorLastName].filter(Boolean).join(' ') || r.actorEmail || 'Unknown user';

function toAuditRow(r: TAuditRowRead, patientId: string | undefined): TAuditRow {
  return {
    seq: Number(r.seq),
    at: new Date(r.at).toISOString(),
    // A row's actor may be a user since removed: the id stays, the name says so.
    actor: r.actorId ? { id: r.actorId, name: actorName(r), role: r.actorRole ?? 'unknown' } : null,
    action: r.action,
    outcome: r.outcome,
    entityType: r.entityType,
    entityId: r.entityId,
    patientId: r.patientId,
    patientCount: r.patientCount,
    viaList: patientId ? r.patientId !== patientId : null,
    ip: r.ip,
    userAgent: r.userAgent,
  };
}

const ZAuditCursor = z.tuple([z.number().int().positive()]);

export const AUDIT_READS = {
  /**
   * A page of the trail, newest first. Reading it is recorded too, with the filtered patient as
   * the row's patient, so "who looked at this patient's trail" is in the trail; the filters
   * themselves are not (no free text is accepted anyway).
   */
  list: readOf({
    action: 'audit.list',
    entityType: 'audit',
    run: async ({ db, deps }, query: TAuditListQuery): Promise<TServedPage<TAuditRow>> => {
      const beforeSeq = query.cursor ? decodeCursor(query.cursor, ZAuditCursor)[0] : null;
      // The viewer shows sealed rows (numbered, linked): the first page waits for what is committed.
      if (beforeSeq === null) await sealCommitted(db);
      const rows = await listAuditRows(db, auditWhere(deps, query), { limit: query.limit + 1, beforeSeq });
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        items: page.map((r) => toAuditRow(r, query.patientId)),
        total: null,
        nextCursor: rows.length > query.limit && last ? encodeCursor([Number(last.seq)]) : null,
      };
    },
    shows: (_page, query) => ({ patientId: query.patientId ?? null }),
  }),
  /**
   * The filtered trail as CSV, newest first, streamed: read in keyset batches as the client
   * takes them, so memory stays one batch whatever the trail's size. The export is recorded
   * before the first byte leaves.
   */
  export: readOf({
    action: 'audit.export',
    entityType: 'audit',
    run: async ({ db, deps }, filters: TAuditFilters) => {
      await sealCommitted(db);
      return exportOf(db, deps, filters);
    },
    shows: (_file, filters) => ({ patientId: filters.patientId ?? null }),
  }),
};

export const listActions = (deps: Deps) => listAuditActions(deps.db);

/** The chain's head as it stands once what is committed is sealed, signed for keeping elsewhere. */
export async function signedHead(deps: Deps, signer: AuditHeadSigner): Promise<TSignedAuditHead> {
  await sealCommitted(deps.db);
  const head = await lastSealedRow(deps.db);
  if (!head) throw new HttpError('audit.nothingSealed');
  return signer.sign(head, deps.config.now());
}

export const AUDIT_CSV_COLUMNS = [
  'seq',
  'id',
  'at',
  'actor_id',
  'actor_name',
  'actor_role',
  'action',
  'outcome',
  'entity_type',
  'entity_id',
  'patient_id',
  'patient_ids',
  'patient_count',
  'via_list',
  'ip',
  'user_agent',
  'hash',
] as const;

function csvRow(r: TAuditRowRead, patientId: string | undefined): string {
  const row = toAuditRow(r, patientId);
  return csvLine([
    row.seq,
    r.id,
    r.atExact,
    r.actorId,
    row.actor?.name,
    row.actor?.role,
    r.action,
    r.outcome,
    r.entityType,
    r.entityId,
    r.patientId,
    r.patientIds,
    r.patientCount,
    row.viaList,
    r.ip,
    r.userAgent,
    r.hash,
  ]);
}

/** The export's file: its name, and its lines read lazily as the client takes them. */
function exportOf(db: Db, deps: Deps, filters: TAuditFilters): TCsvFile {
  const where = auditWhere(deps, filters);
  const day = zonedDate(deps.config.now(), deps.settings.current().timeZone).replaceAll('-', '');
  async function* lines() {
    yield csvLine(AUDIT_CSV_COLUMNS);
    let beforeSeq: number | null = null;
    for (;;) {
      const rows = await listAuditRows(db, where, { limit: EXPORT_BATCH, beforeSeq });
      if (rows.length === 0) return;
      yield rows.map((r) => csvRow(r, filters.patientId)).join('');
      if (rows.length < EXPORT_BATCH) return;
      beforeSeq = Number(rows.at(-1)!.seq);
    }
  }
  return csvFile(`audit-${day}.csv`, lines);
}
