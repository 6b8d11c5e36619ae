import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZChangeConditionCode, ZConditionCode, ZNewConditionCode } from '#domain/condition-codes';
import { ZErrorBody } from '#domain/errors';
import { ZCatalogueQuery, ZFormularyItem, ZSaveFormularyItem } from '#domain/formulary';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { sendPage } from '../../http/paging.ts';
import { contextOf } from '../../http/request-context.ts';
import { addConditionCode, changeConditionCode, conditionCodesFor, formularyFor, saveFormularyItem } from './formulary.service.ts';

const ZItemParams = z.object({ id: z.string().uuid('Invalid item id') });
const ZCodeParams = z.object({ code: z.string().max(20, 'Invalid code') });
const tags = ['chart'];
const item = { entityType: 'formulary_item' } as const;
const code = { entityType: 'condition_code' } as const;

/**
 * The admin's editor of the formulary and the problem list's codes (formulary.manage; issue 51).
 * The pickers search them under /api/chart (chart.record); these list retired items too, page by page.
 */
export const formularyRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/admin/formulary',
    {
      config: { access: 'formulary.manage' },
      schema: {
        tags,
        description: 'The formulary by name, active items (or retired, or all); `q` finds words of a name, an RxNorm code, or the start of an ATC code.',
        querystring: ZCatalogueQuery,
        response: { 200: z.array(ZFormularyItem), ...errorResponses },
      },
    },
    async (request, reply) => sendPage(reply, await formularyFor(deps, request.query)),
  );
  app.post(
    '/api/admin/formulary',
    {
      config: { access: 'formulary.manage', audit: { action: 'formulary.create', ...item } },
      schema: {
        tags,
        description: "Adds the clinic's own item; its name is made from its ingredients, strength and form.",
        body: ZSaveFormularyItem,
        response: { 201: ZFormularyItem, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await saveFormularyItem(deps, contextOf(request), null, request.body)),
  );
  app.put(
    '/api/admin/formulary/:id',
    {
      config: { access: 'formulary.manage', audit: { action: 'formulary.update', ...item } },
      schema: {
        tags,
        description: 'Rewrites an item (it becomes the clinic’s: an import leaves it alone) or retires it; entries that name it keep it.',
        params: ZItemParams,
        body: ZSaveFormularyItem,
        response: { 200: ZFormularyItem, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => saveFormularyItem(deps, contextOf(request), request.params.id, request.body),
  );

  app.get(
    '/api/admin/condition-codes',
    {
      config: { access: 'formulary.manage' },
      schema: {
        tags,
        description: 'The problem list’s ICD-10-CM codes by code, active (or retired, or all); `q` finds the start of a code or words of a title.',
        querystring: ZCatalogueQuery,
        response: { 200: z.array(ZConditionCode), ...errorResponses },
      },
    },
    async (request, reply) => sendPage(reply, await conditionCodesFor(deps, request.query)),
  );
  app.post(
    '/api/admin/condition-codes',
    {
      config: { access: 'formulary.manage', audit: { action: 'formulary.code_create', ...code } },
      schema: {
        tags,
        description: 'Adds an ICD-10-CM code the starter list lacks.',
        body: ZNewConditionCode,
        response: { 201: ZConditionCode, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await addConditionCode(deps, contextOf(request), request.body)),
  );
  app.put(
    '/api/admin/condition-codes/:code',
    {
      config: { access: 'formulary.manage', audit: { action: 'formulary.code_update', ...code } },
      schema: {
        tags,
        description: "Retires or restores a code, or renames one of the clinic's own; problems that name it keep it.",
        params: ZCodeParams,
        body: ZChangeConditionCode,
        response: { 200: ZConditionCode, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => changeConditionCode(deps, contextOf(request), request.params.code, request.body),
  );
};
