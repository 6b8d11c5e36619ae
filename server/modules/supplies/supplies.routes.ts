import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '#domain/errors';
import { pageQuery } from '#domain/paging';
import {
  SUPPLY_ITEM_PAGE,
  ZCreateSupplyOrder,
  ZMoveSupplyOrder,
  ZOrderSuggestions,
  ZPickUpSupplyOrder,
  ZRecordSupplyCount,
  ZRecordSupplyUse,
  ZSaveSupplyItem,
  ZSuppliesSummary,
  ZSupplyItem,
  ZSupplyItemListQuery,
  ZSupplyMovement,
  ZSupplyOrder,
  ZSupplyOrderListQuery,
  ZSupplySuggestion,
} from '#domain/supplies';
import type { Deps } from '../../deps.ts';
import { sendCsvFile } from '../../http/csv.ts';
import { errorResponses } from '../../http/error-body.ts';
import { sendPage } from '../../http/paging.ts';
import { contextOf } from '../../http/request-context.ts';
import { runPeriodically } from '../../jobs/periodic.ts';
import { reader } from '../../scope/reader.ts';
import { suppliesSummaryFor, supplyItemsCsv, supplyOrdersCsv } from './supplies.service.ts';
import { movementsFor, recordSupplyCount, recordSupplyUse, saveSupplyItem, suppliersFor, supplyItemFor, supplyItemsFor } from './supply-items.service.ts';
import { createSupplyOrder, moveSupplyOrder, pickUpSupplyOrder, SUPPLY_READS } from './supply-orders.service.ts';
import { dismissSuggestion, draftReorderSuggestions, orderSuggestions, suggestionsFor } from './supply-suggestions.service.ts';

const ZOrderParams = z.object({ id: z.string().uuid('Invalid supply order id') });
const ZItemParams = z.object({ id: z.string().uuid('Invalid supply item id') });
const ZSuggestionParams = z.object({ id: z.string().uuid('Invalid suggestion id') });
const ZCsv = { 200: z.any().describe('text/csv'), ...errorResponses };
const order = { entityType: 'supply_order' } as const;
const item = { entityType: 'supply_item' } as const;

/** How often the reorder job looks. */
export const REORDER_EVERY_MS = 15 * 60_000;
export const REORDER_JOB = 'supply reorder suggestions';

/**
 * Supplies (issue 31; docs/decisions/supplies.md): the catalogue and its stock, supply orders and
 * their pickup, reorder suggestions. Who may do what is domain/permissions.ts; the moves,
 * SUPPLY_ORDER_WORKFLOW. No patient data: reads are not audited, every change is, and a refused
 * request on an order or an item is recorded.
 */
export const supplyRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/supply-items',
    {
      config: { access: 'supplies.stock' },
      schema: {
        description:
          'The catalogue with its stock: low (at or below the reorder point, furthest below first), expiring within `within` days (soonest first), or all by name.',
        querystring: ZSupplyItemListQuery,
        response: { 200: z.array(ZSupplyItem), ...errorResponses },
      },
    },
    async (request, reply) => sendPage(reply, await supplyItemsFor(deps, request.query)),
  );

  app.get(
    '/api/supply-items/export.csv',
    {
      config: { access: 'supplies.stock' },
      schema: {
        description: 'A stock list as CSV (RFC 4180, formula cells made inert), streamed.',
        querystring: ZSupplyItemListQuery.omit({ limit: true, cursor: true }).strict(),
        response: ZCsv,
      },
    },
    async (request, reply) => sendCsvFile(request, reply, supplyItemsCsv(deps, request.query)),
  );

  app.get(
    '/api/supply-items/:id',
    { config: { access: 'supplies.stock' }, schema: { params: ZItemParams, response: { 200: ZSupplyItem, ...errorResponses } } },
    async (request) => supplyItemFor(deps, request.params.id),
  );

  app.get(
    '/api/supply-items/:id/movements',
    {
      config: { access: 'supplies.stock' },
      schema: {
        description: "The item's stock movements, newest first: on hand is their sum.",
        params: ZItemParams,
        querystring: pageQuery(SUPPLY_ITEM_PAGE).strict(),
        response: { 200: z.array(ZSupplyMovement), ...errorResponses },
      },
    },
    async (request, reply) => sendPage(reply, await movementsFor(deps, request.params.id, request.query)),
  );

  app.post(
    '/api/supply-items',
    {
      config: { access: 'supplies.manage', audit: { action: 'supply.item.create', ...item } },
      schema: { body: ZSaveSupplyItem, response: { 201: ZSupplyItem, ...errorResponses, 409: ZErrorBody } },
    },
    async (request, reply) => reply.code(201).send(await saveSupplyItem(deps, contextOf(request), null, request.body)),
  );

  app.put(
    '/api/supply-items/:id',
    {
      config: { access: 'supplies.manage', audit: { action: 'supply.item.update', ...item } },
      schema: { params: ZItemParams, body: ZSaveSupplyItem, response: { 200: ZSupplyItem, ...errorResponses, 409: ZErrorBody } },
    },
    async (request) => saveSupplyItem(deps, contextOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/supply-items/:id/use',
    {
      config: { access: 'supplies.stock', audit: { action: 'supply.use', ...item } },
      schema: {
        description: 'Records units used.',
        params: ZItemParams,
        body: ZRecordSupplyUse,
        response: { 200: ZSupplyItem, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => recordSupplyUse(deps, contextOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/supply-items/:id/count',
    {
      config: { access: 'supplies.manage', audit: { action: 'supply.count', ...item } },
      schema: {
        description: 'Records what is on the shelf; a difference from the stock on record needs its reason.',
        params: ZItemParams,
        body: ZRecordSupplyCount,
        response: { 200: ZSupplyItem, ...errorResponses },
      },
    },
    async (request) => recordSupplyCount(deps, contextOf(request), request.params.id, request.body),
  );

  app.get(
    '/api/supplies/suppliers',
    {
      // Whom to order from: those who order (an admin edits items with them too); a supplier is not shown her competitors.
      config: { access: 'supplies.order' },
      schema: {
        description: 'The active supplier accounts an order may be placed with.',
        response: { 200: z.array(z.object({ id: z.string().uuid(), name: z.string() })), ...errorResponses },
      },
    },
    async () => suppliersFor(deps),
  );

  app.get(
    '/api/supplies/summary',
    {
      config: { access: 'supplies.readOrders' },
      schema: { description: "The dashboard's supply figures, in the caller's scope.", response: { 200: ZSuppliesSummary, ...errorResponses } },
    },
    async (request) => suppliesSummaryFor(deps, contextOf(request)),
  );

  app.get(
    '/api/supply-orders',
    {
      config: { access: 'supplies.readOrders', audit: SUPPLY_READS.list },
      schema: {
        description: "Supply orders: open (oldest first), done or all (newest first); a supplier's are those placed with her.",
        querystring: ZSupplyOrderListQuery,
        response: { 200: z.array(ZSupplyOrder), ...errorResponses },
      },
    },
    async (request, reply) => sendPage(reply, await reader(deps, contextOf(request))(SUPPLY_READS.list, request.query)),
  );

  app.get(
    '/api/supply-orders/export.csv',
    {
      config: { access: 'supplies.readOrders', audit: SUPPLY_READS.list },
      schema: {
        description: 'Supply orders as CSV, one row per line, streamed.',
        querystring: ZSupplyOrderListQuery.omit({ limit: true, cursor: true }).strict(),
        response: ZCsv,
      },
    },
    async (request, reply) => sendCsvFile(request, reply, supplyOrdersCsv(deps, contextOf(request), request.query)),
  );

  app.get(
    '/api/supply-orders/:id',
    {
      config: { access: 'supplies.readOrders', audit: SUPPLY_READS.get },
      schema: { params: ZOrderParams, response: { 200: ZSupplyOrder, ...errorResponses } },
    },
    async (request) => reader(deps, contextOf(request))(SUPPLY_READS.get, request.params.id),
  );

  app.post(
    '/api/supply-orders',
    {
      config: { access: 'supplies.order', audit: { action: 'supply.create', ...order } },
      schema: {
        description: 'Places an order of catalogue lines with a supplier. The server numbers it and computes its total in cents; a total sent is ignored.',
        body: ZCreateSupplyOrder,
        response: { 201: ZSupplyOrder, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createSupplyOrder(deps, contextOf(request), request.body)),
  );

  app.put(
    '/api/supply-orders/:id',
    {
      config: { access: 'supplies.readOrders', audit: { action: 'supply.processing', ...order } },
      schema: {
        description: "A move of the order's workflow: processing and ready_for_pickup (its supplier), or cancelled with its reason before processing.",
        params: ZOrderParams,
        body: ZMoveSupplyOrder,
        response: { 200: ZSupplyOrder, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => moveSupplyOrder(deps, contextOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/supply-orders/:id/pickup',
    {
      config: { access: 'supplies.order', audit: { action: 'supply.completed', ...order } },
      schema: {
        description: 'Confirms the pickup: each line in full unless fewer came (a short line); what came is added to stock.',
        params: ZOrderParams,
        body: ZPickUpSupplyOrder.optional(),
        response: { 200: ZSupplyOrder, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => pickUpSupplyOrder(deps, contextOf(request), request.params.id, request.body ?? {}),
  );

  app.get(
    '/api/supply-suggestions',
    {
      config: { access: 'supplies.order' },
      schema: { description: 'Open reorder suggestions, by supplier then item.', response: { 200: z.array(ZSupplySuggestion), ...errorResponses } },
    },
    async () => suggestionsFor(deps),
  );

  app.post(
    '/api/supply-suggestions/order',
    {
      config: { access: 'supplies.order', audit: { action: 'supply.suggestions.order', ...order } },
      schema: {
        description: 'Turns suggestions into one order with the supplier named (all of hers when none are named).',
        body: ZOrderSuggestions,
        response: { 201: ZSupplyOrder, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send(await orderSuggestions(deps, contextOf(request), request.body)),
  );

  app.post(
    '/api/supply-suggestions/:id/dismiss',
    {
      config: { access: 'supplies.order', audit: { action: 'supply.suggestion.dismiss', entityType: 'supply_suggestion' } },
      schema: { params: ZSuggestionParams, response: { 204: z.null(), ...errorResponses } },
    },
    async (request, reply) => {
      await dismissSuggestion(deps, contextOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  runPeriodically(app, REORDER_JOB, REORDER_EVERY_MS, () => draftReorderSuggestions(deps));
};
