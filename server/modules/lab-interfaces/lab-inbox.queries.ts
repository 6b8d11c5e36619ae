import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { LAB_INBOX_STATUSES, labSenderName, type TLabInboxItem, type TLabInboxQuery } from '#domain/lab-interfaces';
import type { TPage } from '#domain/paging';
import type { Queryable } from '../../db/database.ts';
import { cursorInstantText, isoText } from '../../db/instant-text.ts';
import { after, decodeCursor, takePage, ZCursorInstant, ZCursorUuid } from '../../db/keyset.ts';
import { labInboundMessages } from '../../db/schema/lab-interfaces.ts';
import { rowCount, rowId, rowsOf } from '../../db/typed-rows.ts';
import { fullName } from '../../db/user-name.ts';
import type { ReadScope } from '../../scope/read-scope.ts';

/**
 * The lab's messages as the queue shows them: those naming a patient the reader does not see (a
 * restricted record out of her reach) are not there, as everywhere else in the app.
 */

const ZGroup = z.object({ placerNumber: z.string().nullable(), testName: z.string(), observations: z.number(), orderId: z.string().nullable() });
const ZInboxRow = z.object({
  id: rowId,
  receivedAt: z.string(),
  sortAt: z.string(),
  channel: z.enum(['hl7', 'fhir']),
  sendingApplication: z.string(),
  sendingFacility: z.string(),
  controlId: z.string(),
  messageType: z.string(),
  status: z.enum(LAB_INBOX_STATUSES),
  problem: z.string().nullable(),
  resolution: z.string().nullable(),
  messagePatient: z.string().nullable(),
  messageBirthDate: z.string().nullable(),
  patientId: rowId.nullable(),
  groups: z.array(ZGroup),
  resolvedAt: z.string().nullable(),
  resolvedByName: z.string().nullable(),
  updatedAt: z.string(),
  objectKey: z.string(),
});
export type TInboxRow = z.infer<typeof ZInboxRow>;

const select = sql`select m.id, ${isoText(sql`m.received_at`)} as "receivedAt", ${cursorInstantText(sql`m.received_at`)} as "sortAt",
  m.channel, m.sending_application as "sendingApplication", m.sending_facility as "sendingFacility", m.control_id as "controlId",
  m.message_type as "messageType", m.status, m.problem, m.resolution, m.message_patient as "messagePatient", m.message_birth_date as "messageBirthDate",
  m.patient_id as "patientId", m.groups, ${isoText(sql`m.resolved_at`)} as "resolvedAt", coalesce(${fullName('u')}, u.email) as "resolvedByName",
  ${isoText(sql`m.updated_at`)} as "updatedAt", m.object_key as "objectKey"
  from lab_inbound_messages m left join users u on u.id = m.resolved_by_id`;

export const itemOf = ({ sortAt: _s, objectKey: _o, resolution, problem, sendingApplication, sendingFacility, ...row }: TInboxRow): TLabInboxItem => ({
  ...row,
  sender: labSenderName({ sendingApplication, sendingFacility }),
  problem: resolution ?? problem,
});

/** A page of the queue: what waits, oldest first; or every message, newest first. */
export async function listInbox(q: Queryable, scope: Pick<ReadScope, 'patientSeen'>, query: TLabInboxQuery): Promise<TPage<TLabInboxItem>> {
  const waiting = query.view === 'waiting';
  const key = query.cursor ? decodeCursor(query.cursor, z.tuple([ZCursorInstant, ZCursorUuid])) : null;
  const columns = [sql`m.received_at`, sql`m.id`];
  const rows = await rowsOf(
    q,
    ZInboxRow,
    sql`${select} where ${scope.patientSeen(sql`m.patient_id`)}
      ${waiting ? sql`and m.status = 'unmatched'` : sql``}
      ${key ? sql`and ${after(columns, [sql`${key[0]}::timestamptz`, sql`${key[1]}::uuid`], waiting ? 'asc' : 'desc')}` : sql``}
      order by m.received_at ${sql.raw(waiting ? 'asc' : 'desc')}, m.id ${sql.raw(waiting ? 'asc' : 'desc')} limit ${query.limit + 1}`,
  );
  const { page, nextCursor } = takePage(rows, query.limit, (r) => [r.sortAt, r.id]);
  let total: number | null = null;
  if (!key) {
    const [count] = await rowsOf(
      q,
      z.object({ n: rowCount }),
      sql`select count(*)::int as n from lab_inbound_messages m where ${scope.patientSeen(sql`m.patient_id`)} ${waiting ? sql`and m.status = 'unmatched'` : sql``}`,
    );
    total = count!.n;
  }
  return { items: page.map(itemOf), total, nextCursor };
}

/** One message in the reader's scope; null when there is none she may see. */
export async function findInboxRow(q: Queryable, scope: Pick<ReadScope, 'patientSeen'>, id: string): Promise<TInboxRow | null> {
  const [row] = await rowsOf(q, ZInboxRow, sql`${select} where m.id = ${id}::uuid and ${scope.patientSeen(sql`m.patient_id`)}`);
  return row ?? null;
}

export async function lockInboxMessage(q: Queryable, id: string) {
  const [row] = await q.select().from(labInboundMessages).where(eq(labInboundMessages.id, id)).for('update');
  return row ?? null;
}
