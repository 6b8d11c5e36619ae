import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FHIR_CREATABLE, scopesAllowCreate, type TFhirCreatable } from '#domain/fhir';
import type { Deps } from '../../deps.ts';
import { forbidden } from '../../http/errors.ts';
import { contextOf } from '../../http/request-context.ts';
import { fhirBase, insufficientScope } from './fhir-http.ts';
import { receiveFhir } from '../lab-interfaces/fhir-intake.ts';

/**
 * A lab's results sent as FHIR (issue 54; docs/decisions/lab-interfaces.md): POST DiagnosticReport
 * or Observation, or a transaction Bundle to the base, by an API client holding the type's create
 * scope (a Bundle needs DiagnosticReport's). Registered inside the FHIR plugin, so its errors are
 * OperationOutcomes like every other answer there. The acting account must enter results.
 */
export function fhirResultRoutes(app: FastifyInstance, deps: Deps, base: string) {
  const create = (postedTo: TFhirCreatable | 'Bundle') => async (request: FastifyRequest, reply: FastifyReply) => {
    const caller = request.apiCaller;
    const type = postedTo === 'Bundle' ? 'DiagnosticReport' : postedTo;
    // Results come from a lab's system: a person enters them on the Lab Orders screen.
    if (!caller) throw forbidden();
    if (!scopesAllowCreate(caller.client.scopes, type)) throw insufficientScope(type, 'c');
    const answer = await receiveFhir(deps, contextOf(request), caller.client, request.body, postedTo);
    if (answer.location) reply.header('location', `${fhirBase(deps, request)}/${answer.location}`);
    return reply.code(answer.status).type('application/fhir+json').send(answer.outcome);
  };
  const config = { access: 'labs.enterResults', bearer: true, audit: { action: 'lab.inbox.receive', entityType: 'lab_message' } } as const;
  for (const type of FHIR_CREATABLE) {
    app.post(
      `${base}/${type}`,
      { config, schema: { description: `A lab's results as ${type} (issue 54): filed to its order, or kept for a person.` } },
      create(type),
    );
  }
  app.post(
    base,
    { config, schema: { description: "A lab's results as a transaction Bundle: one DiagnosticReport, its Observations, and the Patient." } },
    create('Bundle'),
  );
}
