import { and, eq, inArray } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { users } from '../../db/schema/auth.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { DEMO_USERS } from './demo-accounts.ts';

/** No one signed in made this change: the server did, as it started. */
const STARTING_SERVER: RequestContext = { user: null, ip: '', userAgent: 'server start-up (not in demo mode)', sessionToken: null };

/**
 * Outside demo mode the demo accounts must not open anything: their password is published. A
 * database that once ran in demo mode (a trial that became the clinic's, a DEMO=1 left on)
 * still holds them, so at every start they are deactivated (a trigger, migration 0003, ends
 * their sessions; other instances drop cached ones within config.sessionRevalidateMs), with an
 * audit row each. Returns the emails it switched off, for the start-up log.
 */
export async function disableDemoAccounts(db: Db, config: Pick<Config, 'demo' | 'now'>): Promise<string[]> {
  if (config.demo) return [];
  const now = config.now();
  return db.transaction(async (tx) => {
    const disabled = await tx
      .update(users)
      .set({ isActive: false, updatedAt: now })
      .where(
        and(
          inArray(
            users.email,
            DEMO_USERS.map((u) => u.email),
          ),
          eq(users.isActive, true),
        ),
      )
      .returning({ id: users.id, email: users.email });
    await recordAudit(
      tx,
      STARTING_SERVER,
      disabled.map((u) => ({ action: 'user.deactivate_demo', entityType: 'user', entityId: u.id })),
    );
    return disabled.map((u) => u.email);
  });
}

/** Whether anyone at all can sign in (an active account): a production start with none says how to make the first. */
export async function anyActiveUser(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.isActive, true)).limit(1);
  return row !== undefined;
}
