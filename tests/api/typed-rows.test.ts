import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { rowCount, rowDay, rowsOf, rowTimestamp } from '../../server/db/typed-rows.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { insertPatient } from '../helpers/factories.ts';

// Raw queries' rows are checked against a row schema (server/db/typed-rows.ts, issue 49): what
// the checks catch, on the engine the suite runs on.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ZRow = z.object({ id: z.string(), firstName: z.string(), dateOfBirth: rowDay.nullable(), createdAt: rowTimestamp });

describe('rowsOf', () => {
  it('gives rows as their schema has them: a Date for a timestamp, text for a day, a number for a count', async () => {
    const patient = await insertPatient(t.db, { firstName: 'Rowena', dateOfBirth: '1980-02-29' });
    const [row] = await rowsOf(
      t.db,
      ZRow.extend({ visits: rowCount }),
      sql`select id, first_name as "firstName", date_of_birth::text as "dateOfBirth", created_at as "createdAt", count(*) over () as visits
      from patients where id = ${patient.id}::uuid`,
    );
    expect(row).toEqual({ id: patient.id, firstName: 'Rowena', dateOfBirth: '1980-02-29', createdAt: expect.any(Date), visits: 1 });
  });

  it('fails on a renamed or retyped column, naming the column and never a value', async () => {
    const patient = await insertPatient(t.db, { firstName: 'Secretia', dateOfBirth: '1975-06-01' });
    const renamed = rowsOf(
      t.db,
      ZRow,
      sql`select id, first_name as "givenName", date_of_birth::text as "dateOfBirth", created_at as "createdAt" from patients where id = ${patient.id}::uuid`,
    );
    await expect(renamed).rejects.toThrow("A query's row does not match its schema: firstName: invalid_type");
    const retyped = rowsOf(
      t.db,
      ZRow,
      sql`select id, first_name as "firstName", date_of_birth - date '1970-01-01' as "dateOfBirth", created_at as "createdAt" from patients where id = ${patient.id}::uuid`,
    );
    const error: Error = await retyped.then(
      () => new Error('no error'),
      (e: Error) => e,
    );
    expect(error.message).toMatch(/dateOfBirth/);
    expect(error.message).not.toContain('Secretia');
    expect(error.message).not.toContain('1975');
  });
});
