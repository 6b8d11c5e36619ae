import { z } from 'zod';
import { LAB_FLAGS, LAB_SEXES } from './lab-flags.ts';
import { ZNoteAttachment } from './notes.ts';
import { LAB_ORDER_CONTROLS, LAB_RESULT_SOURCES, LAB_RESULT_STATUSES, LAB_SEND_STATUSES } from './lab-interfaces.ts';
import { LAB_ORDER_STATUSES } from './orders.ts';
import { pageQuery } from './paging.ts';
import { can } from './permissions.ts';
import type { TRole } from './roles.ts';
import { optionalLine, optionalText, requiredLine, ZDate } from './text.ts';

/**
 * Lab orders with closed-loop review (issue 30; docs/decisions/labs.md): an order moves through
 * LAB_ORDER_WORKFLOW (domain/workflows.ts); its results are one row per analyte, flagged from the
 * clinic's test catalogue (domain/lab-flags.ts); review is its own step after `received`.
 */

/** `stat` is the most urgent; the spec's `isUrgent` is true for urgent and stat. */
export const LAB_PRIORITIES = ['routine', 'urgent', 'stat'] as const;
export type TLabPriority = (typeof LAB_PRIORITIES)[number];
export const isUrgentPriority = (priority: TLabPriority) => priority !== 'routine';

export const LAB_PRIORITY_LABELS: Record<TLabPriority, string> = { routine: 'Routine', urgent: 'Urgent', stat: 'STAT' };
export const LAB_STATUS_LABELS: Record<(typeof LAB_ORDER_STATUSES)[number], string> = {
  ordered: 'Ordered',
  pending: 'Collected',
  received: 'Results in',
  cancelled: 'Cancelled',
};

/** An analyte's value: a number against the catalogue's ranges, or text (urinalysis colour, 'negative'). */
export const LAB_VALUE_KINDS = ['numeric', 'text'] as const;
export type TLabValueKind = (typeof LAB_VALUE_KINDS)[number];

/** Where a result's flag came from: the catalogue's range, the person entering it, or the lab's report. */
export const LAB_FLAG_SOURCES = ['computed', 'entered', 'lab'] as const;

export const LAB_LIMITS = {
  testName: 200,
  analyteName: 100,
  unit: 30,
  loinc: 20,
  description: 2000,
  reason: 500,
  resultsText: 20_000,
  valueText: 500,
} as const;
/** Most analytes a test may hold (a CBC has about 20), and most results one order takes. */
export const LAB_MAX_ANALYTES = 40;
/** Review ages (days since results arrived): amber from the first, red from the second. */
export const LAB_REVIEW_AGE_DAYS = { amber: 7, red: 14 } as const;
/** Minutes a critical result may wait unacknowledged before the admins are told (a clinic setting). */
export const CRITICAL_ESCALATION_MINUTES_DEFAULT = 30;

/** A LOINC code: digits, a dash and a check digit (2345-7). */
const ZLoinc = optionalLine(LAB_LIMITS.loinc).refine((v) => v === null || /^\d{1,7}-\d$/.test(v), 'A LOINC code looks like 2345-7');
const ZLimit = z.number({ error: 'Must be a number' }).finite('Must be a number').nullable();
const ZAgeYears = z.number({ error: 'Must be whole years' }).int('Must be whole years').min(0, 'At least 0').max(150, 'At most 150').nullable();

/**
 * One reference range of an analyte: for a sex (or any) and an age band [ageFrom, ageTo) in
 * whole years (open at either end), with its normal and critical limits. Critical limits lie
 * outside the normal ones.
 */
export const ZLabRange = z
  .object({ sex: z.enum(LAB_SEXES).nullable(), ageFrom: ZAgeYears, ageTo: ZAgeYears, low: ZLimit, high: ZLimit, criticalLow: ZLimit, criticalHigh: ZLimit })
  .superRefine((r, ctx) => {
    // In the order they run: critical low, low, high, critical high (each may be left open).
    const order: [keyof typeof r, string, number | null][] = [
      ['criticalLow', 'the critical low', r.criticalLow],
      ['low', 'the low limit', r.low],
      ['high', 'the high limit', r.high],
      ['criticalHigh', 'the critical high', r.criticalHigh],
    ];
    const present = order.filter(([, , v]) => v !== null) as [string, string, number][];
    for (let i = 1; i < present.length; i++) {
      if (present[i]![2] < present[i - 1]![2]) {
        ctx.addIssue({ code: 'custom', path: [present[i]![0]], message: `Must not be below ${present[i - 1]![1]}` });
      }
    }
    if (r.ageFrom !== null && r.ageTo !== null && r.ageTo <= r.ageFrom)
      ctx.addIssue({ code: 'custom', path: ['ageTo'], message: 'Must be above the age it starts at' });
  });

export const ZLabAnalyteInput = z.object({
  /** Present when editing an analyte that exists; its results keep pointing at it. */
  id: z.string().uuid().optional(),
  name: requiredLine('Analyte name', LAB_LIMITS.analyteName),
  loinc: ZLoinc,
  /** UCUM, as the lab reports it (mmol/L, 10*3/uL, %). */
  unit: optionalLine(LAB_LIMITS.unit),
  kind: z.enum(LAB_VALUE_KINDS),
  ranges: z.array(ZLabRange).max(12, 'At most 12 ranges'),
});

/** POST/PUT /api/lab-tests (admin): a test or panel of the catalogue, with its analytes in order. */
export const ZSaveLabTest = z
  .object({
    name: requiredLine('Test name', LAB_LIMITS.testName),
    loinc: ZLoinc,
    isActive: z.boolean().default(true),
    analytes: z.array(ZLabAnalyteInput).min(1, 'A test has at least one analyte').max(LAB_MAX_ANALYTES, `At most ${LAB_MAX_ANALYTES} analytes`),
    updatedAt: z.string().optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    const seen = new Set<string>();
    t.analytes.forEach((a, i) => {
      const key = a.name.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['analytes', i, 'name'], message: 'Each analyte of a test has its own name' });
      seen.add(key);
    });
  });
export type TSaveLabTest = z.infer<typeof ZSaveLabTest>;
export type TSaveLabTestInput = z.input<typeof ZSaveLabTest>;

export const ZLabRangeOut = z.object({
  sex: z.enum(LAB_SEXES).nullable(),
  ageFrom: z.number().nullable(),
  ageTo: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  criticalLow: z.number().nullable(),
  criticalHigh: z.number().nullable(),
});
export const ZLabAnalyte = z.object({
  id: z.string().uuid(),
  name: z.string(),
  loinc: z.string().nullable(),
  unit: z.string().nullable(),
  kind: z.enum(LAB_VALUE_KINDS),
  ranges: z.array(ZLabRangeOut),
});
export type TLabAnalyte = z.infer<typeof ZLabAnalyte>;
export const ZLabTest = z.object({
  id: z.string().uuid(),
  name: z.string(),
  loinc: z.string().nullable(),
  isActive: z.boolean(),
  analytes: z.array(ZLabAnalyte),
  updatedAt: z.string(),
});
export type TLabTest = z.infer<typeof ZLabTest>;

/**
 * POST /api/lab-orders: a test from the catalogue (`testId`), or free text (`orderName`) for one
 * the clinic has not catalogued; for a patient, by the caller (always the ordering provider).
 */
export const ZCreateLabOrder = z
  .object({
    patientId: z.string({ error: 'Patient is required' }).uuid('Patient is required'),
    testId: z.string().uuid('Choose a test from the catalogue').nullish(),
    orderName: optionalLine(LAB_LIMITS.testName).optional(),
    description: optionalText(LAB_LIMITS.description).optional(),
    priority: z.enum(LAB_PRIORITIES, { error: `Expected one of ${LAB_PRIORITIES.join(', ')}` }).default('routine'),
    /** The day results are expected (clinic day); past it with no result, the order is overdue. */
    expectedOn: ZDate.nullish(),
  })
  .strict()
  .superRefine((o, ctx) => {
    if (!o.testId && !o.orderName) ctx.addIssue({ code: 'custom', path: ['orderName'], message: 'Choose a test, or name one' });
  });
export type TCreateLabOrder = z.infer<typeof ZCreateLabOrder>;
export type TCreateLabOrderInput = z.input<typeof ZCreateLabOrder>;

/** PUT /api/lab-orders/{id}: a status move of the workflow (a cancellation with its reason), against the version read when sent. */
export const ZUpdateLabOrder = z
  .object({
    status: z.enum(LAB_ORDER_STATUSES, { error: `Expected one of ${LAB_ORDER_STATUSES.join(', ')}` }),
    statusReason: optionalText(LAB_LIMITS.reason).optional(),
    updatedAt: z.string().optional(),
  })
  .strict();
export type TUpdateLabOrder = z.infer<typeof ZUpdateLabOrder>;

/** One value entered: a number or text for an analyte of the order's test (or a free-text test's own line). */
export const ZLabResultInput = z.object({
  /** The catalogue's analyte; absent for a test ordered as free text, whose line names itself. */
  analyteId: z.string().uuid().optional(),
  name: optionalLine(LAB_LIMITS.analyteName).optional(),
  value: z.union([z.number().finite('Must be a number'), optionalLine(LAB_LIMITS.valueText)]),
  unit: optionalLine(LAB_LIMITS.unit).optional(),
  /** A flag entered by hand or sent by the lab, which overrides the computed one; required to call a text result abnormal. */
  flag: z.enum(LAB_FLAGS).nullish(),
  flagSource: z.enum(['entered', 'lab']).optional(),
});

/**
 * PUT /api/lab-orders/{id}/results: the results of the order, one per analyte, its report text
 * and attachments (a lab's PDF). The first entry moves the order to `received`; a later one is a
 * correction, which needs a reason, keeps the earlier values in the history and reopens review.
 */
export const ZEnterLabResults = z
  .object({
    results: z.array(ZLabResultInput).max(LAB_MAX_ANALYTES),
    resultsText: optionalText(LAB_LIMITS.resultsText).optional(),
    attachments: z.array(z.string().max(200)).max(5, 'At most 5 attachments').optional(),
    correctionReason: optionalText(LAB_LIMITS.reason).optional(),
    updatedAt: z.string().optional(),
  })
  .strict();
export type TEnterLabResults = z.infer<typeof ZEnterLabResults>;
export type TEnterLabResultsInput = z.input<typeof ZEnterLabResults>;

export const ZLabResult = z.object({
  id: z.string().uuid(),
  analyteId: z.string().uuid().nullable(),
  name: z.string(),
  valueNumeric: z.number().nullable(),
  valueText: z.string().nullable(),
  unit: z.string().nullable(),
  /** The range that applied when it was flagged, as it was then. */
  range: ZLabRangeOut.pick({ low: true, high: true, criticalLow: true, criticalHigh: true }).nullable(),
  flag: z.enum(LAB_FLAGS).nullable(),
  flagSource: z.enum(LAB_FLAG_SOURCES).nullable(),
  /** Typed, or sent by a lab's interface (issue 54), and the lab's standing of it. */
  source: z.enum(LAB_RESULT_SOURCES),
  resultStatus: z.enum(LAB_RESULT_STATUSES),
  enteredAt: z.string(),
  /** When it was last corrected; null if never. */
  correctedAt: z.string().nullable(),
});
export type TLabResult = z.infer<typeof ZLabResult>;

export const ZLabOrder = z.object({
  id: z.string().uuid(),
  patientId: z.string().uuid(),
  patientName: z.string(),
  providerId: z.string().uuid().nullable(),
  providerName: z.string().nullable(),
  testId: z.string().uuid().nullable(),
  orderName: z.string(),
  description: z.string().nullable(),
  status: z.enum(LAB_ORDER_STATUSES),
  statusReason: z.string().nullable(),
  priority: z.enum(LAB_PRIORITIES),
  isUrgent: z.boolean(),
  orderedAt: z.string(),
  expectedOn: z.string().nullable(),
  receivedAt: z.string().nullable(),
  /** When and by whom the specimen was marked collected (null for one never marked). */
  collectedAt: z.string().nullable(),
  collectedByName: z.string().nullable(),
  results: z.string().nullable(),
  attachments: z.array(z.string()),
  /** Each attachment (the lab's report) with what its stored file says it is, as a note's. */
  attachmentFiles: z.array(ZNoteAttachment),
  reviewedAt: z.string().nullable(),
  reviewedById: z.string().uuid().nullable(),
  reviewedByName: z.string().nullable(),
  /** The worst flag among its results: what the lists sort and colour by. */
  worstFlag: z.enum(LAB_FLAGS).nullable(),
  /** An unacknowledged critical alert, if any. */
  criticalAlertId: z.string().uuid().nullable(),
  /** The placer order number a lab sends back with the results (L000123; issue 54). */
  placerNumber: z.string(),
  /** Its send to the lab that performs the test, when one does (issue 54): where it stands. */
  send: z
    .object({
      labName: z.string(),
      /** A new order, or (once it is cancelled) its cancellation: the latest send is shown. */
      orderControl: z.enum(LAB_ORDER_CONTROLS),
      status: z.enum(LAB_SEND_STATUSES),
      attempts: z.number(),
      lastError: z.string().nullable(),
      acknowledgedAt: z.string().nullable(),
    })
    .nullable(),
  updatedAt: z.string(),
});
export type TLabOrder = z.infer<typeof ZLabOrder>;
export const ZLabOrderDetail = ZLabOrder.extend({ resultRows: z.array(ZLabResult) });
export type TLabOrderDetail = z.infer<typeof ZLabOrderDetail>;

/**
 * The lists (GET /api/lab-orders?view=): `outstanding` (ordered or collected, most urgent then
 * oldest first), `review` (results in, not yet reviewed, abnormal first then oldest; the
 * caller's own orders, or every order for those who review any), `all` (newest first).
 */
export const LAB_VIEWS = ['outstanding', 'review', 'all'] as const;
export type TLabView = (typeof LAB_VIEWS)[number];
export const LAB_ORDER_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;
export const ZLabOrderListQuery = pageQuery(LAB_ORDER_PAGE)
  .extend({ view: z.enum(LAB_VIEWS).default('all'), patientId: z.string().uuid('Invalid patient id').optional() })
  .strict();
export type TLabOrderListQuery = z.infer<typeof ZLabOrderListQuery>;

/** The results of one analyte of a patient over time, for the trend chart. */
export const ZLabTrendPoint = z.object({ orderId: z.string().uuid(), at: z.string(), value: z.number(), flag: z.enum(LAB_FLAGS).nullable() });
export const ZLabTrend = z.array(ZLabTrendPoint);

/** A result correction's history entry: the value before it and why it changed. */
export const ZLabResultRevision = z.object({
  id: z.string().uuid(),
  resultName: z.string(),
  at: z.string(),
  actorName: z.string(),
  source: z.enum(LAB_RESULT_SOURCES),
  valueBefore: z.string().nullable(),
  valueAfter: z.string().nullable(),
  flagBefore: z.enum(LAB_FLAGS).nullable(),
  flagAfter: z.enum(LAB_FLAGS).nullable(),
  reason: z.string().nullable(),
});
export type TLabResultRevision = z.infer<typeof ZLabResultRevision>;

/**
 * Who reviews an order's results and acknowledges its critical alert: its ordering provider, and
 * whoever reviews any result (docs/decisions/labs.md).
 */
export function mayReviewLab(user: { id: string; role: TRole }, order: { providerId: string | null }): boolean {
  return can(user, 'labs.reviewAny') || (can(user, 'labs.review') && order.providerId === user.id);
}

/** The review age of results in since `receivedAt`: none, amber (7 days) or red (14 days). */
export function reviewAge(receivedAt: string | Date, now: Date): 'fresh' | 'amber' | 'red' {
  const days = (now.getTime() - new Date(receivedAt).getTime()) / 86_400_000;
  return days >= LAB_REVIEW_AGE_DAYS.red ? 'red' : days >= LAB_REVIEW_AGE_DAYS.amber ? 'amber' : 'fresh';
}
