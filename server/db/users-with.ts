import { sql } from 'drizzle-orm';
import { rolesWith, type TCapability } from '#domain/permissions';
import { queryRows, type Queryable } from './database.ts';

/**
 * The active users whose role holds a capability now (domain/permissions.ts), all of them or
 * only among `ids`: who is told, who may be named, decided by the one permission table.
 */
export async function activeUsersWith(q: Queryable, capability: TCapability, among?: readonly (string | null)[]): Promise<string[]> {
  const ids = among && [...new Set(among.filter((id): id is string => id !== null))];
  if (ids && ids.length === 0) return [];
  const roles = rolesWith(capability);
  const rows = await queryRows<{ id: string }>(
    q,
    sql`select id from users where is_active ${ids ? sql`and id = any(${`{${ids.join(',')}}`}::uuid[])` : sql``}
      and role in (${sql.join(
        roles.map((r) => sql`${r}`),
        sql`, `,
      )})`,
  );
  return rows.map((r) => r.id);
}
