import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { checkKeysMatch, KeysDifferError } from '../../server/secrets/key-check.ts';
import { freshDatabase } from '../helpers/test-database.ts';

// Issue 48: two instances with separate data directories each made their own keys, and an
// attachment uploaded through one answered 500 through the other. The first to start records
// the keys' fingerprints; one with other keys is refused, naming the variable to share.

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await database?.close();
});

const keys = (files: Buffer, auditHead: Buffer) => ({
  files: { key: files, keyFile: '/nonexistent/files.key' },
  auditHead: { key: auditHead, keyFile: '/nonexistent/audit-head.key' },
});

describe('the keys of instances on one database', () => {
  it('are recorded by the first; the same keys start again; other keys are refused, naming each that differs', async () => {
    const [files, head] = [randomBytes(32), randomBytes(32)];
    await checkKeysMatch(database.db, keys(files, head));
    await checkKeysMatch(database.db, keys(files, head));
    const refusal = await checkKeysMatch(database.db, keys(randomBytes(32), head)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(KeysDifferError);
    expect((refusal as Error).message).toMatch(/files key differ .*FILES_KEY/);
    await expect(checkKeysMatch(database.db, keys(randomBytes(32), randomBytes(32)))).rejects.toThrow(
      /files key and audit head key differ .*FILES_KEY, AUDIT_HEAD_KEY/,
    );
  });
});
