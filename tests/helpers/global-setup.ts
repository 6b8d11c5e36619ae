import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/database.ts';

/**
 * Migrates one database for the whole run, so each test file can start from a fresh copy
 * in about a second: a PGlite data-directory snapshot, or a PostgreSQL template database
 * when TEST_DATABASE_URL is set.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  if (url) {
    const prefix = `ehr_t_${runId}`;
    const { template, dropAll } = await migratedTemplate(url, prefix);
    project.provide('dbSource', { kind: 'postgres', url, template, prefix });
    return dropAll;
  }
  const db = await openDatabase({});
  const file = path.join(os.tmpdir(), `ehr-pglite-${runId}.tar`);
  fs.writeFileSync(file, Buffer.from(await (await db.snapshot!()).arrayBuffer()));
  await db.close();
  project.provide('dbSource', { kind: 'pglite', file });
  return () => fs.rmSync(file, { force: true });
}

/**
 * A migrated PostgreSQL database named `<prefix>_tpl`, for copies named `<prefix>_…` made with
 * `create database … template`; `dropAll` drops it and every copy a test left behind.
 */
export async function migratedTemplate(url: string, prefix: string): Promise<{ template: string; dropAll: () => Promise<void> }> {
  const template = `${prefix}_tpl`;
  await adminQuery(url, `create database ${template}`);
  const db = await openDatabase({ url: withDatabase(url, template) });
  await db.close();
  const dropAll = async () => {
    const rows = await adminQuery(url, `select datname from pg_database where starts_with(datname, '${prefix}_')`);
    for (const { datname } of rows) await adminQuery(url, `drop database if exists ${datname} with (force)`);
  };
  return { template, dropAll };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function adminQuery(url: string, text: string): Promise<{ datname: string }[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    dbSource: { kind: 'pglite'; file: string } | { kind: 'postgres'; url: string; template: string; prefix: string };
  }
}
