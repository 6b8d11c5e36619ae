import { sql, type SQL } from 'drizzle-orm';
import { ZLabConnection, ZLabSend, type TLabConnection, type TLabSend, type TLabSendStatus } from '#domain/lab-interfaces';
import type { Queryable } from '../../db/database.ts';
import { isoText } from '../../db/instant-text.ts';
import { rowsOf } from '../../db/typed-rows.ts';
import { placerNumberText } from '../labs/labs.queries.ts';

/** The labs the clinic sends orders to, and their sends. No patient is named here: an order is its number and test. */

const connections = (where: SQL) => sql`select c.id, c.name, c.host, c.port, c.message_type as "messageType",
  c.receiving_application as "receivingApplication", c.receiving_facility as "receivingFacility", c.is_active as "isActive",
  coalesce((select json_agg(json_build_object('testId', tc.test_id, 'testName', t.name, 'code', tc.code) order by lower(t.name))
    from lab_test_codes tc join lab_tests t on t.id = tc.test_id where tc.connection_id = c.id), '[]'::json) as codes,
  ${isoText(sql`c.updated_at`)} as "updatedAt"
  from lab_connections c where ${where} order by lower(c.name), c.id`;

export const listLabConnections = (q: Queryable): Promise<TLabConnection[]> => rowsOf(q, ZLabConnection, connections(sql`true`));

export async function findLabConnection(q: Queryable, id: string): Promise<TLabConnection | null> {
  return (await rowsOf(q, ZLabConnection, connections(sql`c.id = ${id}::uuid`)))[0] ?? null;
}

/** Sends in one state, the latest change first (the admin's list of failed sends, at most 200). */
export function listLabSends(q: Queryable, status: TLabSendStatus): Promise<TLabSend[]> {
  return rowsOf(
    q,
    ZLabSend,
    sql`select s.id, s.order_id as "orderId", s.order_control as "orderControl", ${placerNumberText(sql`o`)} as "placerNumber", o.order_name as "orderName",
      c.name as "labName", s.status, s.attempts, s.last_error as "lastError", ${isoText(sql`s.next_attempt_at`)} as "nextAttemptAt",
      ${isoText(sql`s.acknowledged_at`)} as "acknowledgedAt", ${isoText(sql`s.updated_at`)} as "updatedAt"
    from lab_order_sends s join lab_orders o on o.id = s.order_id join lab_connections c on c.id = s.connection_id
    where s.status = ${status} order by s.updated_at desc, s.id limit 200`,
  );
}
