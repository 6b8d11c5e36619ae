import { eq } from 'drizzle-orm';
import type { TLabTest, TSaveLabTest } from '#domain/labs';
import { labAnalytes, labTests } from '../../db/schema/labs.ts';
import { sqlStateOf } from '../../db/sql-state.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Deps } from '../../deps.ts';
import { HttpError, invalid, notFound, stale } from '../../http/errors.ts';
import type { SignedInContext } from '../../http/request-context.ts';
import { recordAudit } from '../../audit/audit-writer.ts';
import { analyteIdsOf, deactivateAnalytes, findLabTest, listLabTests, lockLabTest, replaceRanges } from './lab-catalogue.queries.ts';

/**
 * The clinic's test catalogue (issue 30; docs/decisions/labs.md). Reading it names no patient:
 * anyone who orders or enters results reads it, unaudited; editing it is an admin's, audited.
 */
export const labTestsFor = (deps: Deps, includeInactive: boolean) => listLabTests(deps.db, { activeOnly: !includeInactive });

const DUPLICATE = () => new HttpError('record.conflict', { message: 'A test of that name is already in the catalogue' });

/**
 * Creates a test (id null) or replaces one's definition: its name, code, analytes in the order
 * given and their ranges. An analyte sent with its id keeps its results' link; one left out is
 * retired (its past results keep their name, unit and the range that applied, copied in).
 */
export async function saveLabTest(deps: Deps, ctx: SignedInContext, id: string | null, input: TSaveLabTest): Promise<TLabTest> {
  try {
    const savedId = await inTransaction(deps, async (tx) => {
      const now = deps.config.now();
      let testId: string;
      if (id === null) {
        const [row] = await tx
          .insert(labTests)
          .values({ name: input.name, loinc: input.loinc, isActive: input.isActive, createdAt: now, updatedAt: now })
          .returning();
        testId = row!.id;
      } else {
        const current = await lockLabTest(tx, id);
        if (!current) throw notFound('Test not found');
        if (input.updatedAt !== undefined && input.updatedAt !== current.updatedAt.toISOString()) throw stale();
        await tx.update(labTests).set({ name: input.name, loinc: input.loinc, isActive: input.isActive, updatedAt: now }).where(eq(labTests.id, id));
        testId = id;
      }
      const existing = await analyteIdsOf(tx, testId);
      const kept: string[] = [];
      for (const [position, analyte] of input.analytes.entries()) {
        const values = { name: analyte.name, loinc: analyte.loinc, unit: analyte.unit, kind: analyte.kind, position, isActive: true };
        let analyteId: string;
        if (analyte.id !== undefined) {
          if (!existing.includes(analyte.id)) throw invalid(`analytes.${position}.id`, 'Not an analyte of this test');
          await tx.update(labAnalytes).set(values).where(eq(labAnalytes.id, analyte.id));
          analyteId = analyte.id;
        } else {
          analyteId = (
            await tx
              .insert(labAnalytes)
              .values({ ...values, testId })
              .returning({ id: labAnalytes.id })
          )[0]!.id;
        }
        kept.push(analyteId);
        await replaceRanges(
          tx,
          analyteId,
          analyte.ranges.map((r) => ({ analyteId, ...r })),
        );
      }
      await deactivateAnalytes(tx, testId, kept);
      await recordAudit(tx, ctx, { action: id === null ? 'lab.catalogue.create' : 'lab.catalogue.update', entityType: 'lab_test', entityId: testId });
      return testId;
    });
    return (await findLabTest(deps.db, savedId))!;
  } catch (error) {
    // The name is unique without regard to case (lab_tests_name_key).
    if (sqlStateOf(error) === '23505') throw DUPLICATE();
    throw error;
  }
}
