import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '#domain/errors';
import { ZChangeInteractionPair, ZInteractionPair, ZInteractionPairs, ZNewInteractionPair } from '#domain/interaction-pairs';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { contextOf } from '../../http/request-context.ts';
import { addInteractionPair, changeInteractionPair, interactionPairsOf } from './interaction-pairs.service.ts';

const ZParams = z.object({ id: z.string().uuid('Invalid interaction pair id') });
const tags = ['prescriptions'];
const pair = { entityType: 'interaction_pair' } as const;

/**
 * The clinic's own drug–drug interaction pairs (formulary.manage; issue 52), checked with the
 * shipped ones whenever a prescription is checked, written or signed.
 */
export const interactionPairRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/admin/interaction-pairs',
    {
      config: { access: 'formulary.manage' },
      schema: {
        tags,
        description:
          "The interaction pairs the checks use: `shipped`, the app's own (the ONC high-priority list and its example), read-only; `clinic`, the clinic's, active first, retired ones too.",
        response: { 200: ZInteractionPairs, ...errorResponses },
      },
    },
    async () => interactionPairsOf(deps),
  );
  app.post(
    '/api/admin/interaction-pairs',
    {
      config: { access: 'formulary.manage', audit: { action: 'interaction.create', ...pair } },
      schema: {
        tags,
        description: "Adds a pair of the clinic's: two named groups of the formulary's ingredients, the alert's severity and the line a prescriber reads.",
        body: ZNewInteractionPair,
        response: { 201: ZInteractionPair, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await addInteractionPair(deps, contextOf(request), request.body)),
  );
  app.put(
    '/api/admin/interaction-pairs/:id',
    {
      config: { access: 'formulary.manage', audit: { action: 'interaction.update', ...pair } },
      schema: {
        tags,
        description:
          'Changes a pair of the clinic’s (the fields sent replace its own), or retires (isActive false) or restores it; with the updatedAt read, 409 over another’s change.',
        params: ZParams,
        body: ZChangeInteractionPair,
        response: { 200: ZInteractionPair, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => changeInteractionPair(deps, contextOf(request), request.params.id, request.body),
  );
};
