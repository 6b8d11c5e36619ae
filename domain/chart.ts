import { z } from 'zod';
import { zonedDate } from './clinic-time.ts';
import { ALLERGY_ASSESSMENTS, ALLERGY_CRITICALITIES, ZAllergySummary, type TAllergySummary, type TAllergyStatement } from './allergy-summary.ts';
import { CHART_ENTRY_STATES } from './chart-entry-states.ts';
import { pageQuery } from './paging.ts';
import { ZDate, optionalLine, optionalText, requiredLine } from './text.ts';
import { UNIT_SYSTEMS } from './units.ts';
import { ZVitalsSet } from './vital-signs.ts';

/**
 * The clinical chart (issue 51; docs/decisions/clinical-chart.md): allergies, problems and
 * medications as coded lists, and vital signs (domain/vital-signs.ts). Every entry is versioned:
 * a change keeps its before-value with who, when and why (chart_revisions), and nothing is
 * deleted: a mistake is marked entered-in-error.
 */

export const CHART_LIMITS = { name: 200, note: 2_000, reason: 500, reactions: 10, reaction: 100, dose: 100, frequency: 100, search: 100 } as const;

/** The chart's lists; 'assessment' is the patient's allergy statement (NKA, NKDA) in the history. */
export const CHART_LISTS = ['allergy', 'problem', 'medication', 'vitals', 'assessment'] as const;
export type TChartList = (typeof CHART_LISTS)[number];

/** What a coded substance names: a drug ingredient or drug class (the formulary's), a shipped non-drug allergen, or free text. */
export const SUBSTANCE_KINDS = ['ingredient', 'class', 'allergen', 'text'] as const;

export const ALLERGY_TYPES = ['allergy', 'intolerance'] as const;
export const ALLERGY_CATEGORIES = ['medication', 'food', 'environment', 'biologic'] as const;
export const ALLERGY_SEVERITIES = ['mild', 'moderate', 'severe'] as const;
export const ALLERGY_STATUSES = ['active', 'inactive', 'resolved', 'entered_in_error'] as const;

export const PROBLEM_STATUSES = ['active', 'recurrence', 'relapse', 'inactive', 'remission', 'resolved'] as const;
export const PROBLEM_VERIFICATIONS = ['provisional', 'confirmed', 'refuted', 'entered_in_error'] as const;
export const MEDICATION_STATUSES = ['active', 'on_hold', 'stopped', 'entered_in_error'] as const;
export const MEDICATION_SOURCES = ['prescribed_here', 'patient_reported', 'outside_record'] as const;
export const MEDICATION_ROUTES = [
  'oral',
  'sublingual',
  'topical',
  'transdermal',
  'inhalation',
  'nasal',
  'ophthalmic',
  'otic',
  'rectal',
  'vaginal',
  'subcutaneous',
  'intramuscular',
  'intravenous',
] as const;

const choice = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `Expected one of ${values.join(', ')}` });
const note = optionalText(CHART_LIMITS.note);

/** A substance as recorded: what kind of code it is, the code (an ingredient's name, a class's or allergen's key), and its name as shown. */
export const ZSubstance = z
  .object({
    kind: choice(SUBSTANCE_KINDS),
    code: z.string().trim().max(CHART_LIMITS.name).nullish(),
    /** Free text's name; a coded substance is named by its catalogue (a name sent with it is ignored). */
    name: optionalLine(CHART_LIMITS.name),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (s.kind !== 'text' && !s.code)
      ctx.addIssue({ code: 'custom', path: ['code'], message: 'Choose the substance from the list, or record it as free text' });
    if (s.kind === 'text' && !s.name) ctx.addIssue({ code: 'custom', path: ['name'], message: 'Name the substance' });
  });

/** A day that has happened (an onset, an abatement): not after today anywhere on Earth, so a clinic's today is never refused. */
const pastDay = ZDate.nullish()
  .transform((v) => v ?? null)
  .refine((v) => v === null || v <= zonedDate(new Date(), 'Pacific/Kiritimati'), 'Cannot be in the future');

const allergyShape = {
  substance: ZSubstance,
  type: choice(ALLERGY_TYPES),
  category: choice(ALLERGY_CATEGORIES),
  reactions: z.array(requiredLine('Reaction', CHART_LIMITS.reaction)).max(CHART_LIMITS.reactions, `At most ${CHART_LIMITS.reactions} reactions`),
  severity: choice(ALLERGY_SEVERITIES).nullish(),
  criticality: choice(ALLERGY_CRITICALITIES),
  onset: pastDay,
  status: choice(ALLERGY_STATUSES),
  note,
};

/** POST /api/patients/{id}/allergies: an allergy or intolerance (PUT .../allergies/{entryId} takes any of these fields: ZAllergyChange). */
export const ZAllergyFields = z
  .object({
    ...allergyShape,
    type: allergyShape.type.default('allergy'),
    reactions: allergyShape.reactions.default([]),
    criticality: allergyShape.criticality.default('unable_to_assess'),
    status: allergyShape.status.default('active'),
  })
  .strict();
export type TAllergyFields = z.infer<typeof ZAllergyFields>;

/** Who wrote an entry and where it stands. */
const ZEntryMeta = {
  id: z.string().uuid(),
  patientId: z.string().uuid(),
  state: z.enum(CHART_ENTRY_STATES),
  /** Its version: sent back with a change, so a change over someone else's is refused (409). */
  version: z.number().int(),
  recordedAt: z.string(),
  /** Who recorded it: a scribe changes her own draft. */
  recordedById: z.string().uuid().nullable(),
  recordedByName: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  confirmedByName: z.string().nullable(),
  updatedAt: z.string(),
};

export const ZAllergy = z.object({
  ...ZEntryMeta,
  substance: z.object({ kind: z.enum(SUBSTANCE_KINDS), code: z.string().nullable(), name: z.string() }),
  type: z.enum(ALLERGY_TYPES),
  category: z.enum(ALLERGY_CATEGORIES),
  reactions: z.array(z.string()),
  severity: z.enum(ALLERGY_SEVERITIES).nullable(),
  criticality: z.enum(ALLERGY_CRITICALITIES),
  onset: z.string().nullable(),
  status: z.enum(ALLERGY_STATUSES),
  note: z.string().nullable(),
});
export type TAllergy = z.infer<typeof ZAllergy>;

/** Why an entry is marked entered-in-error: required (the server refuses a change to it without one; the form asks first). */
export const IN_ERROR_REASON_REQUIRED = 'Say why this entry was entered in error';
export const ZInErrorReason = z.object({ reason: z.string().trim().min(1, IN_ERROR_REASON_REQUIRED).max(CHART_LIMITS.reason) });

/**
 * A change of an entry: the fields sent change, the rest stay (no defaults fill in what was not
 * sent). `version` (optional, as the record's own read-back is) refuses a change made over
 * someone else's; `reason` says why, and is required to mark one entered-in-error. The entry as
 * changed is then checked whole, as a new one is.
 */
const changeOf = <S extends z.ZodRawShape>(shape: S) =>
  z
    .object(shape)
    .partial()
    .extend({ version: z.number().int().optional(), reason: optionalText(CHART_LIMITS.reason) })
    .strict();
export const ZAllergyChange = changeOf(allergyShape);

/** A day of a medication's course (a start, a stop): may be ahead, as a planned stop is. */
const anyDay = ZDate.nullish().transform((v) => v ?? null);

/** The later of two days must not come before the earlier: a 400 naming the later field. */
const inOrder =
  <T extends Record<string, unknown>>(first: keyof T & string, then: keyof T & string, message: string) =>
  (value: T, ctx: z.RefinementCtx) => {
    const [a, b] = [value[first], value[then]];
    if (typeof a === 'string' && typeof b === 'string' && b < a) ctx.addIssue({ code: 'custom', path: [then], message });
  };

/** A problem's condition: an ICD-10-CM code of the clinic's list (its title is the list's), or free text. */
export const ZCondition = z
  .object({ code: z.string().trim().toUpperCase().max(20).nullish(), name: optionalLine(CHART_LIMITS.name) })
  .strict()
  .superRefine((c, ctx) => {
    if (!c.code && !c.name) ctx.addIssue({ code: 'custom', path: ['name'], message: 'Choose a condition from the list, or name it' });
  });

const problemShape = {
  condition: ZCondition,
  clinicalStatus: choice(PROBLEM_STATUSES),
  verification: choice(PROBLEM_VERIFICATIONS),
  onset: pastDay,
  abatement: pastDay,
  note,
};
const abatementInOrder = inOrder<{ onset: unknown; abatement: unknown }>('onset', 'abatement', 'Cannot be before the onset');
/** A problem with a day it ended is no longer active: resolved, inactive or in remission (FHIR's con-4 too). */
const ABATED_STATUSES: readonly string[] = ['inactive', 'remission', 'resolved'];
const problemRules = (p: { onset: unknown; abatement: unknown; clinicalStatus: string }, ctx: z.RefinementCtx) => {
  abatementInOrder(p, ctx);
  if (p.abatement && !ABATED_STATUSES.includes(p.clinicalStatus)) {
    ctx.addIssue({ code: 'custom', path: ['clinicalStatus'], message: 'A problem that ended is resolved, inactive or in remission' });
  }
};

/** POST /api/patients/{id}/problems: a condition on her problem list. */
export const ZProblemFields = z
  .object({ ...problemShape, clinicalStatus: problemShape.clinicalStatus.default('active'), verification: problemShape.verification.default('confirmed') })
  .strict()
  .superRefine(problemRules);
export type TProblemFields = z.infer<typeof ZProblemFields>;

/** A medication: one of the formulary's (its name is the formulary's), or free text. */
export const ZMedicationRef = z
  .object({ formularyId: z.string().uuid('Invalid formulary item').nullish(), name: optionalLine(CHART_LIMITS.name) })
  .strict()
  .superRefine((m, ctx) => {
    if (!m.formularyId && !m.name) ctx.addIssue({ code: 'custom', path: ['name'], message: 'Choose a medication from the list, or name it' });
  });

const medicationShape = {
  medication: ZMedicationRef,
  dose: optionalLine(CHART_LIMITS.dose),
  route: choice(MEDICATION_ROUTES).nullish(),
  frequency: optionalLine(CHART_LIMITS.frequency),
  start: anyDay,
  stop: anyDay,
  status: choice(MEDICATION_STATUSES),
  stopReason: optionalText(CHART_LIMITS.reason),
  source: choice(MEDICATION_SOURCES),
  note,
};
const startBeforeStop = inOrder<{ start: unknown; stop: unknown }>('start', 'stop', 'Cannot be before the start');
/** A stopped medication says when: the list must tell what she takes today. */
const medicationRules = (m: { start: unknown; stop: unknown; status: string }, ctx: z.RefinementCtx) => {
  startBeforeStop(m, ctx);
  if (m.status === 'stopped' && !m.stop) ctx.addIssue({ code: 'custom', path: ['stop'], message: 'A stopped medication needs the day it was stopped' });
};

/** POST /api/patients/{id}/medications: what she takes, prescribed here or elsewhere. */
export const ZMedicationFields = z
  .object({ ...medicationShape, status: medicationShape.status.default('active'), source: medicationShape.source.default('patient_reported') })
  .strict()
  .superRefine(medicationRules);
export type TMedicationFields = z.infer<typeof ZMedicationFields>;

export const ZProblem = z.object({
  ...ZEntryMeta,
  condition: z.object({ code: z.string().nullable(), name: z.string() }),
  clinicalStatus: z.enum(PROBLEM_STATUSES),
  verification: z.enum(PROBLEM_VERIFICATIONS),
  onset: z.string().nullable(),
  abatement: z.string().nullable(),
  note: z.string().nullable(),
});
export type TProblem = z.infer<typeof ZProblem>;

export const ZMedication = z.object({
  ...ZEntryMeta,
  medication: z.object({ formularyId: z.string().uuid().nullable(), name: z.string() }),
  dose: z.string().nullable(),
  route: z.enum(MEDICATION_ROUTES).nullable(),
  frequency: z.string().nullable(),
  start: z.string().nullable(),
  stop: z.string().nullable(),
  status: z.enum(MEDICATION_STATUSES),
  stopReason: z.string().nullable(),
  source: z.enum(MEDICATION_SOURCES),
  note: z.string().nullable(),
});
export type TMedication = z.infer<typeof ZMedication>;

export const ZProblemChange = changeOf(problemShape);
export const ZMedicationChange = changeOf(medicationShape);

/** A condition the problem form offers: an ICD-10-CM code and its title. */
export const ZConditionOption = z.object({ code: z.string(), title: z.string() });
export type TConditionOption = z.infer<typeof ZConditionOption>;
/** A medication the forms offer: a formulary item, with what a prescriber needs to tell it from its neighbours. */
export const ZFormularyOption = z.object({
  id: z.string().uuid(),
  name: z.string(),
  route: z.enum(MEDICATION_ROUTES).nullable(),
  rxcui: z.string().nullable(),
  /** 'tablet', 'oral solution': what a prescription's dose and quantity are counted in. */
  doseForm: z.string().nullable(),
  /** A controlled substance's DEA schedule (II-V): no refills for II, a fresh second factor to sign. */
  schedule: z.string().nullable(),
});
export type TFormularyOption = z.infer<typeof ZFormularyOption>;

/** PUT /api/patients/{id}/allergy-statement: 'No known allergies' / 'No known drug allergies', or null to withdraw it. */
export const ZAllergyAssessmentInput = z.object({ assessment: choice(ALLERGY_ASSESSMENTS).nullable() }).strict();
export type TAllergyAssessmentInput = z.infer<typeof ZAllergyAssessmentInput>;

/** Her notes from the previous record: the free text the patient form held before the chart's lists (kept, readable, never lost). */
export const ZPreviousRecord = z.object({ allergies: z.string().nullable(), medicalHistory: z.string().nullable(), currentMedications: z.string().nullable() });

/** GET /api/chart/previous-records: the patients whose notes from the previous record hold the words searched, with those notes. */
export const ZPreviousRecordMatch = ZPreviousRecord.extend({
  patientId: z.string().uuid(),
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: z.string().nullable(),
});
export type TPreviousRecordMatch = z.infer<typeof ZPreviousRecordMatch>;
export const PREVIOUS_RECORDS_PAGE = { defaultLimit: 25, maxLimit: 100 } as const;
export const ZPreviousRecordsQuery = pageQuery(PREVIOUS_RECORDS_PAGE)
  .extend({ q: z.string().trim().max(CHART_LIMITS.search).optional() })
  .strict();
export type TPreviousRecordsQuery = z.infer<typeof ZPreviousRecordsQuery>;

/** GET /api/patients/{id}/chart: the whole chart in one request. */
export const ZChart = z.object({
  patientId: z.string().uuid(),
  allergies: z.array(ZAllergy),
  allergySummary: ZAllergySummary,
  problems: z.array(ZProblem),
  medications: z.array(ZMedication),
  /** Her latest vital-sign sets, newest first (the trend of each sign is its own read). */
  vitals: z.array(ZVitalsSet),
  /** The clinic's units for vital signs (Settings): what the chart enters and shows them in. */
  unitSystem: z.enum(UNIT_SYSTEMS),
  previousRecord: ZPreviousRecord,
});
export type TChart = z.infer<typeof ZChart>;

/** A substance the allergy form offers: a drug ingredient, a drug class, or a non-drug allergen, with the category it implies. */
export const ZSubstanceOption = z.object({
  kind: z.enum(['ingredient', 'class', 'allergen']),
  code: z.string(),
  name: z.string(),
  category: z.enum(ALLERGY_CATEGORIES),
});
export type TSubstanceOption = z.infer<typeof ZSubstanceOption>;
export const ZSubstanceQuery = z.object({ q: z.string().trim().min(1, 'Type part of a name').max(CHART_LIMITS.search) }).strict();

/** A change in an entry's history, as the chart's history shows it. */
export const ZChartRevision = z.object({
  id: z.string().uuid(),
  list: z.enum(CHART_LISTS),
  entryId: z.string().uuid().nullable(),
  action: z.enum(['created', 'updated', 'confirmed', 'entered_in_error', 'assessed']),
  at: z.string(),
  actorName: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string().nullable(),
});
export type TChartRevision = z.infer<typeof ZChartRevision>;

/**
 * Her allergy summary from her entries and statement: the rule the banner and every patient read
 * share. The server keeps the two consistent (an active allergy withdraws NKA, an active drug
 * allergy NKDA), so a statement beside a list is NKDA beside food or other allergies.
 */
export function allergySummaryOf(
  allergies: readonly Pick<TAllergy, 'substance' | 'criticality' | 'reactions' | 'status' | 'state'>[],
  statement: TAllergyStatement | null,
): TAllergySummary {
  const active = allergies
    .filter((a) => a.status === 'active')
    .map((a) => ({ name: a.substance.name, criticality: a.criticality, reactions: a.reactions, confirmed: a.state === 'confirmed' }))
    // High criticality first, then as recorded.
    .sort((a, b) => Number(b.criticality === 'high') - Number(a.criticality === 'high'));
  return { state: active.length > 0 ? 'listed' : (statement?.value ?? 'unknown'), allergies: active, statement };
}

export {
  ALLERGY_ASSESSMENT_LABELS,
  ALLERGY_ASSESSMENTS,
  ALLERGY_CRITICALITIES,
  ZAllergySummary,
  type TAllergyStatement,
  type TAllergySummary,
} from './allergy-summary.ts';
export { CHART_ENTRY_STATES } from './chart-entry-states.ts';
