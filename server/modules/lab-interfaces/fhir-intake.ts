import { createHash } from 'node:crypto';
import type { OperationOutcome, OperationOutcomeIssue } from '@medplum/fhirtypes';
import type { Deps } from '../../deps.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { THl7Problem } from './hl7-report.ts';
import { readFhirResults } from './fhir-report.ts';
import { keepIncoming, repeatOf, type TIncoming } from './lab-inbox.service.ts';

/**
 * The FHIR side of the interface (issue 54): a lab's DiagnosticReport, Observation or transaction
 * Bundle from an API client holding a create scope, read into the same report as an HL7 message
 * and kept, matched, filed or held by the same code. Answers (docs/decisions/lab-interfaces.md):
 * 201 with the report's Location when filed; 202 when kept for a person; 400 or 422 naming the
 * rule when refused (nothing kept). Each is an OperationOutcome; the same submission again (its
 * identifier, or its exact body) gets the same answer.
 */

export type TFhirAnswer = { status: number; location?: string; outcome: OperationOutcome };

const outcome = (
  severity: 'information' | 'warning' | 'error',
  code: OperationOutcomeIssue['code'],
  diagnostics: string,
  expression?: string,
): OperationOutcome => ({ resourceType: 'OperationOutcome', issue: [{ severity, code, diagnostics, ...(expression ? { expression: [expression] } : {}) }] });

/** Where a held report's problem is, as FHIRPath (the reader's own words for an HL7-shaped rule). */
const expressionOf = (problem: THl7Problem) =>
  problem.segment === 'OBR'
    ? 'DiagnosticReport.basedOn'
    : problem.segment === 'PID'
      ? 'DiagnosticReport.subject'
      : problem.field === 0
        ? problem.segment
        : undefined;

export async function receiveFhir(
  deps: Deps,
  ctx: RequestContext,
  client: { id: string; name: string },
  body: unknown,
  postedTo: 'DiagnosticReport' | 'Observation' | 'Bundle',
): Promise<TFhirAnswer> {
  const read = readFhirResults(body, postedTo);
  if (read.kind === 'refused')
    return { status: read.status, outcome: outcome('error', read.status === 400 ? 'structure' : 'business-rule', read.rule, read.expression) };
  const bytes = Buffer.from(JSON.stringify(body));
  const own = read.controlId ?? `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  const incoming: TIncoming = {
    channel: 'fhir',
    sendingApplication: client.name.slice(0, 200),
    sendingFacility: '',
    controlId: `${client.id}/${own}`.slice(0, 200),
    messageType: postedTo,
    ctx,
    refused: null,
    report: read.report,
    problem: read.problem,
    // A token never reaches a restricted patient (api-token.ts): her results wait for a person who does.
    mayFile: (patient) =>
      patient.restrictedAt === null
        ? null
        : { segment: 'DiagnosticReport.subject', sequence: 1, field: 0, code: '204', text: 'The patient’s record is restricted: a person files it' },
    answer: async ({ code, problem, orderIds }) =>
      JSON.stringify(
        code === 'AA'
          ? { status: 201, location: `DiagnosticReport/${orderIds[0]}`, outcome: outcome('information', 'informational', 'Filed to its lab order') }
          : {
              status: 202,
              outcome: outcome(
                'warning',
                'business-rule',
                `Kept, not filed: ${problem?.text ?? 'a person files it'}`,
                problem ? expressionOf(problem) : undefined,
              ),
            },
      ),
  };
  const repeat = await repeatOf(deps.db, incoming);
  const answer = repeat?.ack ?? (await keepIncoming(deps, incoming, bytes)).ack;
  return JSON.parse(answer) as TFhirAnswer;
}
