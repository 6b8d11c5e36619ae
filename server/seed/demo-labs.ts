import { zonedDate } from '#domain/clinic-time';
import { ageInYears, computeFlag, flagRank, isCritical, rangeFor, type TLabFlag, type TLabRange, type TLabSex } from '#domain/lab-flags';
import { isUrgentPriority, type TLabPriority, type TLabValueKind } from '#domain/labs';
import type { TLabOrderStatus } from '#domain/orders';
import type { Tx } from '../db/database.ts';
import { labOrders } from '../db/schema/clinical.ts';
import { notifications } from '../db/schema/collaboration.ts';
import { labAnalytes, labCriticalAlerts, labRanges, labResults, labTests } from '../db/schema/labs.ts';

/**
 * The demo clinic's lab catalogue and orders (issue 30): six common tests with adult reference
 * ranges (by sex where they differ) and critical limits as hospital labs publish them, and
 * orders in every state: to collect, collected, results in and unreviewed (fresh, 10 and 16
 * days old), reviewed, and one with a critical potassium whose alert is open.
 */
type TRangeRow = Partial<TLabRange>;
type TAnalyteDef = [name: string, loinc: string | null, unit: string | null, kind: TLabValueKind, ranges: TRangeRow[]];

const any = (low: number | null, high: number | null, criticalLow: number | null = null, criticalHigh: number | null = null): TRangeRow => ({
  sex: null,
  low,
  high,
  criticalLow,
  criticalHigh,
});
const bySex = (sex: TLabSex, low: number | null, high: number | null, criticalLow: number | null = null, criticalHigh: number | null = null): TRangeRow => ({
  sex,
  low,
  high,
  criticalLow,
  criticalHigh,
});

const CATALOGUE: [name: string, loinc: string, analytes: TAnalyteDef[]][] = [
  [
    'Complete blood count',
    '58410-2',
    [
      ['White blood cells', '6690-2', '10*3/uL', 'numeric', [any(4.0, 11.0, 2.0, 30.0)]],
      ['Hemoglobin', '718-7', 'g/dL', 'numeric', [bySex('female', 12.0, 15.5, 7.0, 20.0), bySex('male', 13.5, 17.5, 7.0, 20.0)]],
      ['Hematocrit', '4544-3', '%', 'numeric', [bySex('female', 36, 46, 20, 60), bySex('male', 41, 53, 20, 60)]],
      ['Platelets', '777-3', '10*3/uL', 'numeric', [any(150, 400, 50, 1000)]],
    ],
  ],
  [
    'Basic metabolic panel',
    '51990-0',
    [
      ['Sodium', '2951-2', 'mmol/L', 'numeric', [any(136, 145, 120, 160)]],
      ['Potassium', '2823-3', 'mmol/L', 'numeric', [any(3.5, 5.1, 2.5, 6.5)]],
      ['Chloride', '2075-0', 'mmol/L', 'numeric', [any(98, 107)]],
      ['Bicarbonate', '2028-9', 'mmol/L', 'numeric', [any(22, 29, 10, 40)]],
      ['Glucose', '2345-7', 'mg/dL', 'numeric', [any(70, 99, 40, 500)]],
      ['Urea nitrogen', '3094-0', 'mg/dL', 'numeric', [any(7, 20)]],
      ['Creatinine', '2160-0', 'mg/dL', 'numeric', [bySex('female', 0.59, 1.04), bySex('male', 0.74, 1.35)]],
      ['Calcium', '17861-6', 'mg/dL', 'numeric', [any(8.6, 10.3, 6.0, 13.0)]],
    ],
  ],
  [
    'Lipid panel',
    '57698-3',
    [
      ['Total cholesterol', '2093-3', 'mg/dL', 'numeric', [any(null, 199)]],
      ['LDL cholesterol', '2089-1', 'mg/dL', 'numeric', [any(null, 99)]],
      ['HDL cholesterol', '2085-9', 'mg/dL', 'numeric', [bySex('female', 50, null), bySex('male', 40, null)]],
      ['Triglycerides', '2571-8', 'mg/dL', 'numeric', [any(null, 149, null, 1000)]],
    ],
  ],
  ['Hemoglobin A1c', '4548-4', [['Hemoglobin A1c', '4548-4', '%', 'numeric', [any(4.0, 5.6)]]]],
  ['Thyroid stimulating hormone', '3016-3', [['TSH', '3016-3', 'mIU/L', 'numeric', [any(0.4, 4.0)]]]],
  [
    'Urinalysis',
    '24356-8',
    [
      ['Color', '5778-6', null, 'text', []],
      ['Clarity', '5767-9', null, 'text', []],
      ['pH', '2756-5', null, 'numeric', [any(5.0, 8.0)]],
      ['Specific gravity', '2965-2', null, 'numeric', [any(1.005, 1.03)]],
      ['Protein', '20454-5', null, 'text', []],
    ],
  ],
];

type TSeededTest = { id: string; name: string; analytes: { id: string; name: string; unit: string | null; kind: TLabValueKind; ranges: TLabRange[] }[] };
const fill = (r: TRangeRow): TLabRange => ({ sex: null, ageFrom: null, ageTo: null, low: null, high: null, criticalLow: null, criticalHigh: null, ...r });

async function seedCatalogue(tx: Tx, createdAt: Date): Promise<TSeededTest[]> {
  const seeded: TSeededTest[] = [];
  for (const [name, loinc, analytes] of CATALOGUE) {
    const [test] = await tx.insert(labTests).values({ name, loinc, createdAt, updatedAt: createdAt }).returning({ id: labTests.id });
    const rows = await tx
      .insert(labAnalytes)
      .values(analytes.map(([analyte, code, unit, kind], position) => ({ testId: test!.id, position, name: analyte, loinc: code, unit, kind })))
      .returning({ id: labAnalytes.id, position: labAnalytes.position });
    const withRanges = analytes.map(([analyte, , unit, kind, ranges], position) => ({
      id: rows.find((r) => r.position === position)!.id,
      name: analyte,
      unit,
      kind,
      ranges: ranges.map(fill),
    }));
    const rangeRows = withRanges.flatMap((a) => a.ranges.map((r) => ({ analyteId: a.id, ...r })));
    if (rangeRows.length > 0) await tx.insert(labRanges).values(rangeRows);
    seeded.push({ id: test!.id, name, analytes: withRanges });
  }
  return seeded;
}

export interface TDemoLabPeople {
  patients: { id: string; firstName: string; lastName: string; dateOfBirth: string | null; sex: TLabSex | null }[];
  nurse: string;
  nurse2: string;
  admin: string;
}

interface TDemoOrder {
  patient: number;
  provider: 'nurse' | 'nurse2';
  test: string;
  priority: TLabPriority;
  status: TLabOrderStatus;
  orderedHoursAgo: number;
  /** Hours ago the results came in (received orders). */
  receivedHoursAgo?: number;
  reviewedHoursAgo?: number;
  /** Days from today the results are expected (negative: overdue, and its one notice sent). */
  expectedInDays?: number;
  /** A critical result nobody acknowledged in time: the admins were told (so the app's job has nothing left to send). */
  escalated?: boolean;
  values?: Record<string, number | string>;
  results?: string;
  description?: string;
}

/** What marks the orders the demo's reference lab answers through the interface (demo-lab-messages.ts). */
export const SENT_TO_DEMO_LAB = 'Sent to Northwind Lab';

const ORDERS: TDemoOrder[] = [
  { patient: 0, provider: 'nurse', test: 'Complete blood count', priority: 'stat', status: 'ordered', orderedHoursAgo: 1, expectedInDays: 0 },
  { patient: 2, provider: 'nurse2', test: 'Lipid panel', priority: 'routine', status: 'pending', orderedHoursAgo: 50, expectedInDays: -1 },
  { patient: 10, provider: 'nurse', test: 'Thyroid stimulating hormone', priority: 'urgent', status: 'pending', orderedHoursAgo: 6, expectedInDays: 1 },
  {
    patient: 9,
    provider: 'nurse',
    test: 'Basic metabolic panel',
    priority: 'urgent',
    status: 'received',
    orderedHoursAgo: 8,
    receivedHoursAgo: 1,
    escalated: true,
    values: { Sodium: 138, Potassium: 6.8, Chloride: 101, Bicarbonate: 24, Glucose: 112, 'Urea nitrogen': 22, Creatinine: 1.4, Calcium: 9.4 },
    results: 'Specimen not haemolysed. Potassium repeated and confirmed.',
  },
  {
    patient: 5,
    provider: 'nurse',
    test: 'Hemoglobin A1c',
    priority: 'routine',
    status: 'received',
    orderedHoursAgo: 30,
    receivedHoursAgo: 5,
    values: { 'Hemoglobin A1c': 6.1 },
  },
  {
    patient: 4,
    provider: 'nurse2',
    test: 'Thyroid stimulating hormone',
    priority: 'routine',
    status: 'received',
    orderedHoursAgo: 12 * 24,
    receivedHoursAgo: 10 * 24,
    values: { TSH: 2.1 },
  },
  {
    patient: 12,
    provider: 'nurse',
    test: 'Urinalysis',
    priority: 'routine',
    status: 'received',
    orderedHoursAgo: 17 * 24,
    receivedHoursAgo: 16 * 24,
    values: { Color: 'Yellow', Clarity: 'Clear', pH: 6.0, 'Specific gravity': 1.02, Protein: 'Negative' },
  },
  {
    patient: 1,
    provider: 'nurse',
    test: 'Complete blood count',
    priority: 'routine',
    status: 'received',
    orderedHoursAgo: 4 * 24,
    receivedHoursAgo: 3 * 24,
    reviewedHoursAgo: 2 * 24,
    values: { 'White blood cells': 6.2, Hemoglobin: 14.6, Hematocrit: 44, Platelets: 250 },
  },
  {
    patient: 1,
    provider: 'nurse',
    test: 'Complete blood count',
    priority: 'routine',
    status: 'received',
    orderedHoursAgo: 25 * 24,
    receivedHoursAgo: 24 * 24,
    reviewedHoursAgo: 23 * 24,
    values: { 'White blood cells': 7.9, Hemoglobin: 13.1, Hematocrit: 40, Platelets: 231 },
  },
  { patient: 7, provider: 'nurse2', test: 'Lipid panel', priority: 'routine', status: 'cancelled', orderedHoursAgo: 9 * 24 },
  // Sent to the reference lab: its results come back over HL7 when the app starts (one filed, one held for its birth date).
  { patient: 6, provider: 'nurse', test: 'Basic metabolic panel', priority: 'routine', status: 'pending', orderedHoursAgo: 20, description: SENT_TO_DEMO_LAB },
  { patient: 8, provider: 'nurse2', test: 'Lipid panel', priority: 'routine', status: 'pending', orderedHoursAgo: 26, description: SENT_TO_DEMO_LAB },
];

/** When an order's results came in and were reviewed, and the day they are expected. */
function timesOf(o: TDemoOrder, now: Date, timeZone: string) {
  const ago = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
  return {
    receivedAt: o.receivedHoursAgo !== undefined ? ago(o.receivedHoursAgo) : null,
    reviewedAt: o.reviewedHoursAgo !== undefined ? ago(o.reviewedHoursAgo) : null,
    expectedOn: o.expectedInDays !== undefined ? zonedDate(new Date(now.getTime() + o.expectedInDays * 86_400_000), timeZone) : null,
  };
}

/** An order's values with the analyte, range and computed flag of each, in the test's order. */
function flaggedValues(
  test: Awaited<ReturnType<typeof seedCatalogue>>[number],
  values: Record<string, number | string>,
  subject: { sex: TLabSex | null; ageYears: number | null },
) {
  return Object.entries(values).map(([name, value]) => {
    const analyte = test.analytes.find((a) => a.name === name)!;
    const range = analyte.kind === 'numeric' ? rangeFor(analyte.ranges, subject) : null;
    const flag = typeof value === 'number' ? computeFlag(value, range) : null;
    return { analyte, value, range, flag, position: test.analytes.indexOf(analyte) };
  });
}

/** Seeds the catalogue and the orders; every time is `now` or before it. */
export async function seedDemoLabs(tx: Tx, people: TDemoLabPeople, now: Date, timeZone: string, catalogueAt: Date): Promise<void> {
  const tests = await seedCatalogue(tx, catalogueAt);
  const ago = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
  const today = zonedDate(now, timeZone);
  for (const o of ORDERS) {
    const patient = people.patients[o.patient]!;
    const test = tests.find((t) => t.name === o.test)!;
    const providerId = people[o.provider];
    const subject = { sex: patient.sex, ageYears: ageInYears(patient.dateOfBirth, today) };
    const rows = flaggedValues(test, o.values ?? {}, subject);
    const worst = rows.reduce<TLabFlag | null>((w, r) => (flagRank(r.flag) > flagRank(w) ? r.flag : w), null);
    const { receivedAt, reviewedAt, expectedOn } = timesOf(o, now, timeZone);
    const [order] = await tx
      .insert(labOrders)
      .values({
        patientId: patient.id,
        providerId,
        testId: test.id,
        orderName: test.name,
        priority: o.priority,
        isUrgent: isUrgentPriority(o.priority),
        status: o.status,
        statusReason: o.status === 'cancelled' ? 'Ordered twice; the other order stands' : null,
        description: o.description ?? null,
        orderedAt: ago(o.orderedHoursAgo),
        expectedOn,
        receivedAt,
        // The specimen was taken an hour after the order, by the nurse who ordered it.
        ...(o.status === 'pending' || o.status === 'received' ? { collectedAt: ago(o.orderedHoursAgo - 1), collectedById: providerId } : {}),
        results: o.results ?? null,
        reviewedAt,
        reviewedById: reviewedAt ? providerId : null,
        worstFlag: worst,
        flagRank: flagRank(worst),
        overdueNoticeAt: o.expectedInDays !== undefined && o.expectedInDays < 0 ? ago(2) : null,
        createdAt: ago(o.orderedHoursAgo),
        updatedAt: reviewedAt ?? receivedAt ?? ago(o.status === 'pending' ? o.orderedHoursAgo - 1 : o.orderedHoursAgo),
      })
      .returning({ id: labOrders.id });
    if (rows.length > 0) {
      await tx
        .insert(labResults)
        .values(
          rows.map((r) => ({
            orderId: order!.id,
            position: r.position,
            analyteId: r.analyte.id,
            name: r.analyte.name,
            valueNumeric: typeof r.value === 'number' ? r.value : null,
            valueText: typeof r.value === 'string' ? r.value : null,
            unit: r.analyte.unit,
            refLow: r.range?.low ?? null,
            refHigh: r.range?.high ?? null,
            criticalLow: r.range?.criticalLow ?? null,
            criticalHigh: r.range?.criticalHigh ?? null,
            flag: r.flag,
            flagSource: r.flag ? ('computed' as const) : null,
            enteredById: providerId,
            enteredAt: receivedAt!,
          })),
        );
    }
    const name = `${patient.firstName} ${patient.lastName}`;
    if (o.expectedInDays !== undefined && o.expectedInDays < 0) {
      await tx
        .insert(notifications)
        .values({
          userId: providerId,
          type: 'lab_pending',
          title: 'Lab results overdue',
          message: `Results for ${test.name} for ${name} were expected on ${expectedOn} and are not in.`,
          entityId: order!.id,
          createdAt: ago(2),
        });
    }
    if (rows.some((r) => isCritical(r.flag))) {
      const escalatedAt = o.escalated ? new Date(receivedAt!.getTime() + 31 * 60_000) : null;
      await tx
        .insert(labCriticalAlerts)
        .values({ orderId: order!.id, raisedAt: receivedAt!, escalatedAt, createdAt: receivedAt!, updatedAt: escalatedAt ?? receivedAt! });
      if (escalatedAt) {
        await tx
          .insert(notifications)
          .values({
            userId: people.admin,
            type: 'lab_critical',
            title: 'Critical lab result not acknowledged',
            message: `${test.name} (Urgent) for ${name} has a critical value that nobody acknowledged within 30 minutes. Please act on it.`,
            entityId: order!.id,
            createdAt: escalatedAt,
          });
      }
      const critical = rows
        .filter((r) => isCritical(r.flag))
        .map((r) => `${r.analyte.name} ${r.value}${r.analyte.unit ? ` ${r.analyte.unit}` : ''} (${r.flag})`);
      await tx
        .insert(notifications)
        .values({
          userId: providerId,
          type: 'lab_critical',
          title: 'Critical lab result',
          message: `${test.name} (Urgent) for ${name}: ${critical.join('; ')}. Acknowledge it on the Lab Orders screen.`,
          entityId: order!.id,
          createdAt: receivedAt!,
        });
    } else if (o.status === 'received' && !reviewedAt && o.receivedHoursAgo! < 24) {
      await tx
        .insert(notifications)
        .values({
          userId: providerId,
          type: 'lab_received',
          title: 'Lab results in',
          message: `Results for ${test.name} for ${name}${worst && worst !== 'N' ? ', with abnormal values,' : ''} are in and need your review.`,
          entityId: order!.id,
          createdAt: receivedAt!,
        });
    }
  }
}
