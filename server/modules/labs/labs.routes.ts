import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '#domain/errors';
import {
  ZCreateLabOrder,
  ZEnterLabResults,
  ZLabOrder,
  ZLabOrderDetail,
  ZLabOrderListQuery,
  ZLabResultRevision,
  ZLabTest,
  ZLabTrend,
  ZSaveLabTest,
  ZUpdateLabOrder,
} from '#domain/labs';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { sendPage } from '../../http/paging.ts';
import { contextOf } from '../../http/request-context.ts';
import { runPeriodically } from '../../jobs/periodic.ts';
import { reader } from '../../scope/reader.ts';
import { labTestsFor, saveLabTest } from './lab-catalogue.service.ts';
import { escalateCriticalAlerts, LAB_JOBS, LAB_JOBS_EVERY_MS, noticeOverdueLabOrders } from './lab-jobs.ts';
import { acknowledgeLabCritical, createLabOrder, enterLabResults, LAB_READS, moveLabOrder, reviewLabOrder } from './labs.service.ts';

const ZParams = z.object({ id: z.string().uuid('Invalid lab order id') });
const ZTestParams = z.object({ id: z.string().uuid('Invalid test id') });
const ZVersion = z.object({ updatedAt: z.string().optional() }).strict();
const audit = { entityType: 'lab_order' } as const;

/**
 * Lab orders, their results and review (issue 30; docs/decisions/labs.md), and the clinic's test
 * catalogue. Who may do what is domain/permissions.ts; the moves, LAB_ORDER_WORKFLOW.
 */
export const labRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/lab-orders',
    {
      config: { access: 'labs.read', audit: LAB_READS.list },
      schema: {
        description: 'Lab orders: outstanding (most urgent, then oldest), results to review (critical, abnormal, then oldest), or all (newest first).',
        querystring: ZLabOrderListQuery,
        response: { 200: z.array(ZLabOrder), ...errorResponses },
      },
    },
    async (request, reply) => sendPage(reply, await reader(deps, contextOf(request))(LAB_READS.list, request.query)),
  );

  app.get(
    '/api/lab-orders/:id',
    { config: { access: 'labs.read', audit: LAB_READS.get }, schema: { params: ZParams, response: { 200: ZLabOrderDetail, ...errorResponses } } },
    async (request) => reader(deps, contextOf(request))(LAB_READS.get, request.params.id),
  );

  app.get(
    '/api/lab-orders/:id/revisions',
    {
      config: { access: 'labs.read', audit: LAB_READS.history },
      schema: { description: "The corrections of an order's results.", params: ZParams, response: { 200: z.array(ZLabResultRevision), ...errorResponses } },
    },
    async (request) => (await reader(deps, contextOf(request))(LAB_READS.history, request.params.id)).revisions,
  );

  app.get(
    '/api/lab-orders/:id/trend/:analyteId',
    {
      config: { access: 'labs.read', audit: LAB_READS.trend },
      schema: {
        description: "One analyte's numeric values for the order's patient over time (the latest 50), oldest first.",
        params: ZParams.extend({ analyteId: z.string().uuid('Invalid analyte id') }),
        response: { 200: ZLabTrend, ...errorResponses },
      },
    },
    async (request) => (await reader(deps, contextOf(request))(LAB_READS.trend, { id: request.params.id, analyteId: request.params.analyteId })).points,
  );

  app.post(
    '/api/lab-orders',
    {
      config: { access: 'labs.order', audit: { action: 'lab.create', ...audit } },
      schema: { body: ZCreateLabOrder, response: { 201: ZLabOrderDetail, ...errorResponses } },
    },
    async (request, reply) => reply.code(201).send(await createLabOrder(deps, contextOf(request), request.body)),
  );

  app.put(
    '/api/lab-orders/:id',
    {
      config: { access: 'labs.track', audit: { action: 'lab.pending', ...audit } },
      schema: {
        description: "A move of the order's workflow: 'pending' (specimen collected or sent), or 'cancelled' with its reason.",
        params: ZParams,
        body: ZUpdateLabOrder,
        response: { 200: ZLabOrderDetail, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => moveLabOrder(deps, contextOf(request), request.params.id, request.body),
  );

  app.put(
    '/api/lab-orders/:id/results',
    {
      config: { access: 'labs.enterResults', audit: { action: 'lab.results_enter', ...audit } },
      schema: {
        description: 'Enters the results (the order is then received), or corrects them with a reason (review reopens).',
        params: ZParams,
        body: ZEnterLabResults,
        response: { 200: ZLabOrderDetail, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => enterLabResults(deps, contextOf(request), request.params.id, request.body),
  );

  app.post(
    '/api/lab-orders/:id/review',
    {
      config: { access: 'labs.review', audit: { action: 'lab.review', ...audit } },
      schema: { params: ZParams, body: ZVersion.optional(), response: { 200: ZLabOrderDetail, ...errorResponses, 409: ZErrorBody } },
    },
    async (request) => reviewLabOrder(deps, contextOf(request), request.params.id, request.body?.updatedAt),
  );

  app.post(
    '/api/lab-orders/:id/acknowledge',
    {
      config: { access: 'labs.review', audit: { action: 'lab.critical_acknowledge', ...audit } },
      schema: {
        description: "Acknowledges the order's critical result.",
        params: ZParams,
        response: { 200: ZLabOrderDetail, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => acknowledgeLabCritical(deps, contextOf(request), request.params.id),
  );

  // The catalogue names no patient: read by whoever orders or enters results, unaudited.
  app.get(
    '/api/lab-tests',
    {
      config: { access: 'labs.read' },
      schema: {
        description: "The clinic's test catalogue; ?all=1 includes retired tests (for the admin's editor).",
        querystring: z.object({ all: z.enum(['0', '1']).optional() }).strict(),
        response: { 200: z.array(ZLabTest), ...errorResponses },
      },
    },
    async (request) => labTestsFor(deps, request.query.all === '1'),
  );

  app.post(
    '/api/lab-tests',
    {
      config: { access: 'labs.catalogue', audit: { action: 'lab.catalogue.create', entityType: 'lab_test' } },
      schema: { body: ZSaveLabTest, response: { 201: ZLabTest, ...errorResponses, 409: ZErrorBody } },
    },
    async (request, reply) => reply.code(201).send(await saveLabTest(deps, contextOf(request), null, request.body)),
  );

  app.put(
    '/api/lab-tests/:id',
    {
      config: { access: 'labs.catalogue', audit: { action: 'lab.catalogue.update', entityType: 'lab_test' } },
      schema: { params: ZTestParams, body: ZSaveLabTest, response: { 200: ZLabTest, ...errorResponses, 409: ZErrorBody } },
    },
    async (request) => saveLabTest(deps, contextOf(request), request.params.id, request.body),
  );

  // Critical results nobody acknowledged, and orders past their expected day: every minute.
  runPeriodically(app, LAB_JOBS.escalation, LAB_JOBS_EVERY_MS, () => escalateCriticalAlerts(deps));
  runPeriodically(app, LAB_JOBS.overdue, LAB_JOBS_EVERY_MS, () => noticeOverdueLabOrders(deps));
};
