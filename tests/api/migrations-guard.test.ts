import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows, SchemaTooNewError } from '../../server/db/database.ts';
import { migrationsUpTo, migrationTags, upgradingDatabase } from '../helpers/upgrading-database.ts';

// Issue 48: a database is migrated forward only. Code from an older release refuses one a newer
// release migrated, naming both; several instances starting at once on one PostgreSQL database
// migrate one at a time.

describe('a database migrated by a newer release', () => {
  it('is refused by older code, naming both versions, and nothing is changed', async () => {
    const tags = migrationTags();
    const older = migrationsUpTo(tags.at(-2)!);
    const database = await upgradingDatabase();
    try {
      await database.keep(await database.openAt({}));
      const refusal = await database.openAt({ migrationsFolder: older }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(SchemaTooNewError);
      expect((refusal as Error).message).toMatch(new RegExp(`migrated by a newer release .*knows migrations only up to ${tags.at(-2)}`));
      // The newer code still opens it as it was.
      const again = await database.openAt({});
      const [row] = await queryRows<{ n: number }>(again.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(row!.n).toBe(tags.length);
      await database.keep(again);
    } finally {
      fs.rmSync(older, { recursive: true, force: true });
      await database.drop();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('instances starting together on one PostgreSQL database', () => {
  it('migrate one at a time: all three open it, and every migration is applied once', async () => {
    const database = await upgradingDatabase();
    try {
      const opened = await Promise.all([database.openAt({}), database.openAt({}), database.openAt({})]);
      const [row] = await queryRows<{ n: number; distinct: number }>(
        opened[0]!.db,
        sql`select count(*)::int as n, count(distinct hash)::int as distinct from drizzle.__drizzle_migrations`,
      );
      expect(row).toEqual({ n: migrationTags().length, distinct: migrationTags().length });
      await Promise.all(opened.map((d) => d.close()));
    } finally {
      await database.drop();
    }
  });
});
