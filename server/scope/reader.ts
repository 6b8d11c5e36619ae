import type { SQL } from 'drizzle-orm';
import type { TAuditEntityType, TReadAction } from '#domain/audit';
import { auditColumns, writeAuditRows, type AuditRow } from '../audit/audit-writer.ts';
import type { Db } from '../db/database.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import type { SignedInContext } from '../http/request-context.ts';
import { scopeOf, type ReadScope } from './read-scope.ts';

/** Whom an answer shows, for its audit row: one record and its patient, or every patient a list showed. */
export type ReadSubject = Pick<AuditRow, 'entityId' | 'patientId' | 'patientIds'>;

/** What a read's query is handed: the database, the app, and the caller's scope (never the bare user). */
export interface Reading<D = Deps> {
  readonly db: Db;
  readonly deps: D;
  readonly scope: ReadScope;
  /**
   * The audit row's columns, for a statement that writes the row itself with the read (one round
   * trip: `insert into audit_events (actor_id, action, entity_type, <yours>, ip, user_agent,
   * break_glass_id) select <head>, <yours>, <tail(patients shown)>`). Asking for them tells the
   * reader the row is written.
   */
  auditInStatement(): { head: SQL; tail: (patientIds: SQL) => SQL };
}

/**
 * One kind of read of recorded data (patient data above all): its audit action, how to run it
 * in the caller's scope, and whom its answer shows. Every allowed read goes through `reader`,
 * which is the only place such a row is written (ESLint keeps the writer from the modules).
 */
export interface ReadOf<A, R, D = Deps> {
  action: TReadAction;
  entityType: TAuditEntityType;
  /** The 404's message when `run` finds nothing in scope. */
  notFound?: string;
  /** The query, in the caller's scope. Null: nothing she may see (a 404, recorded as a refusal). */
  run(reading: Reading<D>, args: A): Promise<R | null>;
  /** Whom the answer shows; null when it shows no one (an empty list: no row). */
  shows(result: R, args: A): ReadSubject | null;
}

/** Declares a read (types its arguments and result from `run`). */
export const readOf = <A, R, D = Deps>(read: ReadOf<A, R, D>): ReadOf<A, R, D> => read;

/**
 * A read that shows no patient (the staff directory, the clinic itself): run by the reader in the
 * caller's scope like any other, and writing no audit row. `shows` says what it shows instead,
 * so a reviewer sees the choice was made, not forgotten.
 */
export interface PlainReadOf<A, R, D = Deps> {
  shows: 'no patient data';
  notFound?: string;
  run(reading: Reading<D>, args: A): Promise<R | null>;
}

export const plainReadOf = <A, R, D = Deps>(read: PlainReadOf<A, R, D>): PlainReadOf<A, R, D> => read;

/**
 * The caller's reader (Medplum's repository is the model): `read(NOTE_READS.get, id)` runs the
 * read in her scope, then writes its audit row (with those of other requests reading at the same
 * moment: server/audit/audit-writer.ts) before anything is returned: nothing is sent unless its
 * row is committed. A read that found nothing is a 404.
 */
export function reader<D extends { db: Db; config?: { now(): Date } }>(deps: D, ctx: SignedInContext) {
  const scope = scopeOf(ctx, deps.config?.now() ?? new Date());
  return async function read<A, R>(def: ReadOf<A, R, D> | PlainReadOf<A, R, D>, args: A): Promise<R> {
    let recordedInStatement = false;
    const result = await def.run(
      {
        db: deps.db,
        deps,
        scope,
        auditInStatement() {
          if (def.shows === 'no patient data') throw new Error('A read of no patient data writes no audit row');
          recordedInStatement = true;
          return auditColumns(ctx, def.action, def.entityType);
        },
      },
      args,
    );
    if (result === null) throw notFound(def.notFound);
    if (def.shows === 'no patient data') return result;
    const subject = recordedInStatement ? null : def.shows(result, args);
    if (subject) await writeAuditRows(deps.db, ctx, [{ action: def.action, entityType: def.entityType, ...subject }]);
    return result;
  };
}
