import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/database.ts';
import { migratedTemplate } from '../../tests/helpers/global-setup.ts';

/** Where the run's browser-test servers copy their migrated database from (helpers/server.ts). */
export type TServerTemplate = { kind: 'pglite'; dir: string } | { kind: 'postgres'; template: string; prefix: string };

/**
 * Migrates one database for all the run's browser-test servers. Each server starts from a copy
 * (the PGlite data directory copied, or a PostgreSQL template) instead of creating and migrating
 * its own, which took 6-7 s of every server start on PGlite.
 */
export default async function setup(project: TestProject) {
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const prefix = `ehr_e2e_${runId}`;
    const { template, dropAll } = await migratedTemplate(url, prefix);
    project.provide('serverTemplate', { kind: 'postgres', template, prefix });
    return dropAll;
  }
  const root = await mkdtemp(path.join(os.tmpdir(), 'ehr-e2e-template-'));
  const dir = path.join(root, 'pg');
  const db = await openDatabase({ pgliteDir: dir });
  await db.close();
  project.provide('serverTemplate', { kind: 'pglite', dir });
  return () => rm(root, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    serverTemplate: TServerTemplate;
  }
}
