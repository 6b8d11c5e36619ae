import type { Bundle, DiagnosticReport, Observation, Patient, Reference, Resource } from '@medplum/fhirtypes';
import { mostSevereFlag } from '#domain/lab-flags';
import { hl7Flag, type TObservationStatusRule } from '#domain/lab-interfaces';
import type { THl7Problem, TLabReport, TReportGroup, TReportObservation } from './hl7-report.ts';

/**
 * A lab's results sent as FHIR (issue 54; docs/decisions/lab-interfaces.md) read into the same
 * report an HL7 message gives, so the same matching, flags, queue and audit apply: a
 * DiagnosticReport with its Observations (contained, or entries of a transaction Bundle), or one
 * Observation; `basedOn` names the order (ServiceRequest/{id}, or its placer number as an
 * identifier), `subject` the patient, and the Patient resource sent with it her birth date.
 * What is not such a submission is refused with the rule it breaks; what is one but cannot be
 * filed (a value type not taken) is kept and held, as an HL7 message would be.
 */

export type TReadFhir =
  | { kind: 'refused'; status: 400 | 422; rule: string; expression: string }
  | { kind: 'report'; report: TLabReport | null; problem: THl7Problem | null; controlId: string | null };

class Refusal extends Error {
  constructor(
    readonly rule: string,
    readonly expression: string,
  ) {
    super(rule);
  }
}
class Held extends Error {
  constructor(readonly problem: THl7Problem) {
    super(problem.text);
  }
}
const refuse = (rule: string, expression: string): never => {
  throw new Refusal(rule, expression);
};
const hold = (expression: string, text: string): never => {
  throw new Held({ segment: expression, sequence: 1, field: 0, code: '103', text: `${text} (${expression})` });
};

/** FHIR's Observation.status as the app's (the same rule as HL7's table 0085). */
const STATUS: Record<string, TObservationStatusRule> = {
  registered: { skip: 'registered, no result yet' },
  preliminary: { file: 'preliminary' },
  final: { file: 'final' },
  amended: { file: 'corrected' },
  corrected: { file: 'corrected' },
  cancelled: { skip: 'cancelled by the lab' },
  'entered-in-error': { hold: 'the lab says a result it sent was entered in error' },
  unknown: { hold: 'the lab gives no status' },
};

const LOINC = 'http://loinc.org';

/** The resources a reference can name here: contained (#id), or a Bundle entry (its fullUrl, or Type/id). */
type TLookup = (reference: Reference | undefined) => Resource | undefined;

function lookupIn(contained: Resource[], entries: { fullUrl?: string; resource?: Resource }[]): TLookup {
  return (reference) => {
    const ref = reference?.reference;
    if (!ref) return undefined;
    if (ref.startsWith('#')) return contained.find((r) => r.id === ref.slice(1));
    return entries.find((e) => e.fullUrl === ref || (e.resource && `${e.resource.resourceType}/${e.resource.id}` === ref))?.resource;
  };
}

function textOf(concept: { text?: string; coding?: { code?: string; display?: string }[] } | undefined): string {
  return (concept?.text ?? concept?.coding?.find((c) => c.display)?.display ?? concept?.coding?.find((c) => c.code)?.code ?? '').trim();
}

type TValue = Pick<TReportObservation, 'valueNumeric' | 'valueText' | 'unit'>;

/** The value[x] the clinic files: a quantity (a number, or text with its comparator), an integer, text, a code's text, a ratio, a yes or no. */
function valueOf(o: Observation, at: string): TValue {
  const text = (valueText: string): TValue => ({ valueNumeric: null, valueText: valueText.slice(0, 20_000), unit: null });
  const q = o.valueQuantity;
  if (q) {
    if (typeof q.value !== 'number' || !Number.isFinite(q.value)) return hold(`${at}.valueQuantity.value`, 'A quantity without a number');
    const unit = (q.unit ?? q.code ?? null)?.slice(0, 30) ?? null;
    return q.comparator ? { ...text(`${q.comparator}${q.value}`), unit } : { valueNumeric: q.value, valueText: null, unit };
  }
  if (typeof o.valueInteger === 'number') return { valueNumeric: o.valueInteger, valueText: null, unit: null };
  if (typeof o.valueString === 'string') return text(o.valueString);
  if (o.valueCodeableConcept) return text(textOf(o.valueCodeableConcept));
  if (o.valueRatio) return text(`${o.valueRatio.numerator?.value ?? ''}:${o.valueRatio.denominator?.value ?? ''}`);
  if (typeof o.valueBoolean === 'boolean') return text(o.valueBoolean ? 'Yes' : 'No');
  const other = Object.keys(o).find((key) => key.startsWith('value'));
  if (other)
    hold(
      `${at}.${other}`,
      `${other} is not a value the clinic files (valueQuantity, valueString, valueCodeableConcept, valueInteger, valueRatio, valueBoolean)`,
    );
  return { valueNumeric: null, valueText: null, unit: null };
}

/** interpretation as the app's flag (the same v2/v3 letters): the worst sent. */
function flagOf(o: Observation): TReportObservation['labFlag'] {
  return mostSevereFlag((o.interpretation ?? []).flatMap((i) => i.coding ?? []).map((c) => hl7Flag(c.code ?? '')));
}

function observationOf(o: Observation, at: string): TReportObservation {
  const loinc = o.code?.coding?.find((c) => c.system === LOINC)?.code ?? null;
  const code = loinc ?? o.code?.coding?.[0]?.code ?? '';
  const status = STATUS[o.status ?? ''] ?? refuse(`Observation.status must be one of ${Object.keys(STATUS).join(', ')}`, `${at}.status`);
  const range = o.referenceRange?.[0];
  const bounded = range !== undefined && (range.low?.value !== undefined || range.high?.value !== undefined);
  return {
    code,
    name: (textOf(o.code) || code || 'Result').slice(0, 100),
    subId: '',
    loinc,
    ...valueOf(o, at),
    range: bounded ? { low: range.low?.value ?? null, high: range.high?.value ?? null } : null,
    labFlag: flagOf(o),
    status,
    comments: (o.note ?? []).map((n) => n.text ?? '').filter(Boolean),
  };
}

/** `basedOn`: ServiceRequest/{id} (the order), or the order's placer number as an identifier. */
function placerOf(basedOn: Reference[] | undefined, at: string): string {
  const found = (basedOn ?? []).map((b) => /^ServiceRequest\/(.+)$/.exec(b.reference ?? '')?.[1] ?? b.identifier?.value).find(Boolean);
  return found ?? refuse('basedOn must name the lab order (ServiceRequest/{id}, or its placer number as an identifier)', `${at}.basedOn`);
}

/** The patient: `subject` (Patient/{id}) and the Patient resource sent with it (contained or an entry), for her identifiers and birth date. */
function patientOf(subject: Reference | undefined, lookup: TLookup, at: string): TLabReport['patient'] {
  if (!subject) refuse('subject must name the patient', `${at}.subject`);
  const sent = lookup(subject) as Patient | undefined;
  const referenced = /^Patient\/(.+)$/.exec(subject!.reference ?? '')?.[1];
  const identifiers = [referenced, subject!.identifier?.value, sent?.id, ...(sent?.identifier ?? []).map((i) => i.value)].filter((v): v is string =>
    Boolean(v),
  );
  const birthDate = sent?.birthDate ?? null;
  if (birthDate !== null && !/^\d{4}-\d{2}-\d{2}$/.test(birthDate)) hold(`${at}.subject.birthDate`, 'The birth date is not a full date');
  const name = sent?.name?.[0];
  return {
    identifiers: identifiers.map((id) => id.replace(/^urn:uuid:/, '')),
    birthDate,
    name: (name?.text ?? [name?.given?.join(' '), name?.family].filter(Boolean).join(' ')) || null,
  };
}

/** A DiagnosticReport and its results as one report of the app. */
function fromReport(report: DiagnosticReport, lookup: TLookup): TLabReport {
  const results = (report.result ?? []).map((ref, i) => {
    const found = lookup(ref);
    if (!found || found.resourceType !== 'Observation')
      refuse('Each result must be an Observation sent with the report (contained, or an entry of the Bundle)', `DiagnosticReport.result[${i}]`);
    return observationOf(found as Observation, `DiagnosticReport.result[${i}]`);
  });
  if (results.length === 0) refuse('A DiagnosticReport must carry its results (result)', 'DiagnosticReport.result');
  const group: TReportGroup = {
    placerNumber: placerOf(report.basedOn, 'DiagnosticReport'),
    testCode: report.code?.coding?.[0]?.code ?? '',
    testName: (textOf(report.code) || 'Lab report').slice(0, 200),
    comments: [report.conclusion ?? ''].filter(Boolean),
    observations: results,
  };
  return { patient: patientOf(report.subject, lookup, 'DiagnosticReport'), groups: [group] };
}

/** One Observation as a report of one result. */
function fromObservation(o: Observation, lookup: TLookup): TLabReport {
  const group: TReportGroup = {
    placerNumber: placerOf(o.basedOn, 'Observation'),
    testCode: '',
    testName: (textOf(o.code) || 'Lab result').slice(0, 200),
    comments: [],
    observations: [observationOf(o, 'Observation')],
  };
  return { patient: patientOf(o.subject, lookup, 'Observation'), groups: [group] };
}

/** The submission's own id: the report's identifier (system|value), so the same report sent again is the same. */
function controlIdOf(resource: DiagnosticReport | Observation): string | null {
  const id = resource.identifier?.find((i) => i.value);
  return id ? `${id.system ?? ''}|${id.value}`.slice(0, 200) : null;
}

/**
 * A body POSTed to DiagnosticReport, Observation, or the base (a transaction Bundle of one
 * DiagnosticReport with its Observations and, optionally, the Patient): read, or refused.
 */
export function readFhirResults(body: unknown, postedTo: 'DiagnosticReport' | 'Observation' | 'Bundle'): TReadFhir {
  try {
    const resource = body as Resource;
    if (!resource || typeof resource !== 'object' || resource.resourceType !== postedTo) {
      return { kind: 'refused', status: 400, rule: `The body must be a ${postedTo} resource`, expression: 'resourceType' };
    }
    if (postedTo === 'Bundle') {
      const bundle = resource as Bundle;
      if (bundle.type !== 'transaction' && bundle.type !== 'batch') refuse('Only a transaction (or batch) Bundle is taken', 'Bundle.type');
      const entries = (bundle.entry ?? []).map((e) => ({ ...(e.fullUrl ? { fullUrl: e.fullUrl } : {}), ...(e.resource ? { resource: e.resource } : {}) }));
      entries.forEach((e, i) => {
        const type = e.resource?.resourceType;
        if (type !== 'DiagnosticReport' && type !== 'Observation' && type !== 'Patient') {
          refuse('A Bundle of results holds one DiagnosticReport, its Observations and the Patient, nothing else', `Bundle.entry[${i}].resource`);
        }
      });
      const reports = entries.filter((e) => e.resource?.resourceType === 'DiagnosticReport');
      if (reports.length !== 1) refuse('A Bundle of results holds exactly one DiagnosticReport', 'Bundle.entry');
      const report = reports[0]!.resource as DiagnosticReport;
      const lookup = lookupIn(report.contained ?? [], entries);
      return withHeld(() => fromReport(report, lookup), controlIdOf(report));
    }
    const single = resource as DiagnosticReport | Observation;
    const lookup = lookupIn(single.contained ?? [], []);
    return withHeld(
      () => (postedTo === 'DiagnosticReport' ? fromReport(single as DiagnosticReport, lookup) : fromObservation(single as Observation, lookup)),
      controlIdOf(single),
    );
  } catch (error) {
    if (error instanceof Refusal) return { kind: 'refused', status: 422, rule: error.rule, expression: error.expression };
    throw error;
  }
}

function withHeld(read: () => TLabReport, controlId: string | null): TReadFhir {
  try {
    return { kind: 'report', report: read(), problem: null, controlId };
  } catch (error) {
    if (error instanceof Held) return { kind: 'report', report: null, problem: error.problem, controlId };
    throw error;
  }
}
