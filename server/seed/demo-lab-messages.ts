import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TLabTest } from '#domain/labs';
import { rowId, rowsOf } from '../db/typed-rows.ts';
import type { Deps } from '../deps.ts';
import { findLabTest } from '../modules/labs/lab-catalogue.queries.ts';
import { receiveHl7, type TLogger } from '../modules/lab-interfaces/hl7-intake.ts';
import { SENT_TO_DEMO_LAB } from './demo-labs.ts';
import { placerNumberText } from '../modules/labs/labs.queries.ts';

/**
 * The demo clinic's lab interface (issue 54): the reference lab's results for the two orders sent
 * to it (demo-labs.ts): the newer filed by themselves, the older held in the unmatched-results
 * queue because the birth date it gives is not the patient's, for a nurse to compare and file. They go through the
 * interface's own path (receiveHl7), as a lab's would; fixed control ids make it happen once.
 */

const SENDER = 'NORTHWIND LAB|NWL-EAST';
const ZOutstanding = z.object({ id: rowId, placer: z.string(), patientId: rowId, dateOfBirth: z.string(), testId: rowId, first: z.string(), last: z.string() });

const hl7Date = (day: string) => day.replaceAll('-', '');
const oneDayLater = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** An analyte's value in the middle of its first range (a typical result), or a plain word for a text one. */
function obxOf(test: TLabTest, status: string): string[] {
  return test.analytes.map((analyte, i) => {
    const range = analyte.ranges[0];
    const code = `${analyte.loinc ?? `NW${i + 1}`}^${analyte.name}^${analyte.loinc ? 'LN' : 'L'}`;
    if (analyte.kind === 'text' || !range || range.low === null || range.high === null) return `OBX|${i + 1}|ST|${code}||Normal||||||${status}`;
    const value = Math.round(((range.low + range.high) / 2) * 10) / 10;
    return `OBX|${i + 1}|NM|${code}||${value}|${analyte.unit ?? ''}|${range.low}-${range.high}|N|||${status}`;
  });
}

function message(controlId: string, order: z.infer<typeof ZOutstanding>, test: TLabTest, birthDate: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  return [
    `MSH|^~\\&|${SENDER}|CLINIC|CLINIC|${stamp}||ORU^R01^ORU_R01|${controlId}|P|2.5.1`,
    `PID|1||${order.patientId}^^^CLINIC^MR||${order.last}^${order.first}||${hl7Date(birthDate)}`,
    `ORC|RE|${order.placer}|NW-${controlId}`,
    `OBR|1|${order.placer}|NW-${controlId}|${test.loinc ?? ''}^${test.name}^LN|||${stamp}|||||||||||||||${stamp}|||F`,
    'NTE|1||Specimen received in good condition.',
    ...obxOf(test, 'F'),
  ].join('\r');
}

export async function seedDemoLabMessages(deps: Deps, log: TLogger): Promise<void> {
  const [seeded] = await rowsOf(deps.db, z.object({ n: z.number() }), sql`select count(*)::int as n from lab_inbound_messages where control_id like 'DEMO-%'`);
  if (seeded!.n > 0) return;
  const outstanding = await rowsOf(
    deps.db,
    ZOutstanding,
    sql`select o.id, ${placerNumberText(sql`o`)} as placer, o.patient_id as "patientId",
        p.date_of_birth::text as "dateOfBirth", o.test_id as "testId", p.first_name as first, p.last_name as last
      from lab_orders o join patients p on p.id = o.patient_id
      where o.description = ${SENT_TO_DEMO_LAB} and o.status = 'pending' and o.test_id is not null and p.date_of_birth is not null
      order by o.ordered_at desc limit 2`,
  );
  if (outstanding.length < 2) return;
  const now = deps.config.now();
  for (const [i, order] of outstanding.entries()) {
    const test = await findLabTest(deps.db, order.testId);
    if (!test) continue;
    // The second gives a birth date a day off: never filed by itself.
    const birth = i === 0 ? order.dateOfBirth : oneDayLater(order.dateOfBirth);
    await receiveHl7(deps, Buffer.from(message(`DEMO-000${i + 1}`, order, test, birth, now)), '127.0.0.1', log);
  }
}
