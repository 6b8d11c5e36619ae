import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '#domain/errors';
import { ZFileLabInbox, ZLabInboxDetail, ZLabInboxItem, ZLabInboxQuery, ZRejectLabInbox } from '#domain/lab-interfaces';
import type { Deps } from '../../deps.ts';
import { errorResponses } from '../../http/error-body.ts';
import { sendPage } from '../../http/paging.ts';
import { contextOf } from '../../http/request-context.ts';
import { reader } from '../../scope/reader.ts';
import { receiveHl7, refuseOversize } from './hl7-intake.ts';
import { fileInboxMessage, INBOX_READS, rejectInboxMessage } from './lab-inbox.service.ts';
import { listenMllp, type TMllpListener } from './mllp-listener.ts';
import { seedDemoLabMessages } from '../../seed/demo-lab-messages.ts';
import { loggableError } from '../../http/loggable-error.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The MLLP listener once the app is ready, when HL7_MLLP_PORT turns it on (its port, for tests and the log). */
    labInterface: { mllp: TMllpListener | null };
  }
}

const ZParams = z.object({ id: z.string().uuid('Invalid message id') });
const audit = { entityType: 'lab_message' } as const;

/**
 * The lab interface (issue 54; docs/decisions/lab-interfaces.md): the MLLP listener that takes
 * results in, and the queue of what it could not file by itself.
 */
export const labInboxRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  app.get(
    '/api/lab-inbox',
    {
      config: { access: 'labs.inbox', audit: INBOX_READS.list },
      schema: {
        description: "A lab's messages: those waiting for a person (oldest first), or all (newest first).",
        querystring: ZLabInboxQuery,
        response: { 200: z.array(ZLabInboxItem), ...errorResponses },
      },
    },
    async (request, reply) => sendPage(reply, await reader(deps, contextOf(request))(INBOX_READS.list, request.query)),
  );

  app.get(
    '/api/lab-inbox/:id',
    {
      config: { access: 'labs.inbox', audit: INBOX_READS.get },
      schema: { description: 'One message, with its text as segments and fields.', params: ZParams, response: { 200: ZLabInboxDetail, ...errorResponses } },
    },
    async (request) => reader(deps, contextOf(request))(INBOX_READS.get, request.params.id),
  );

  app.post(
    '/api/lab-inbox/:id/file',
    {
      config: { access: 'labs.inbox', audit: { action: 'lab.inbox.file', ...audit } },
      schema: {
        description: 'Files each report of a waiting message to an order, or to a new order for a patient.',
        params: ZParams,
        body: ZFileLabInbox,
        response: { 200: ZLabInboxDetail, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      await fileInboxMessage(deps, ctx, request.params.id, request.body);
      return reader(deps, ctx)(INBOX_READS.get, request.params.id);
    },
  );

  app.post(
    '/api/lab-inbox/:id/reject',
    {
      config: { access: 'labs.inbox', audit: { action: 'lab.inbox.reject', ...audit } },
      schema: {
        description: 'Rejects a waiting message, with why. It is kept.',
        params: ZParams,
        body: ZRejectLabInbox,
        response: { 200: ZLabInboxDetail, ...errorResponses, 409: ZErrorBody },
      },
    },
    async (request) => {
      const ctx = contextOf(request);
      await rejectInboxMessage(deps, ctx, request.params.id, request.body);
      return reader(deps, ctx)(INBOX_READS.get, request.params.id);
    },
  );

  const settings = deps.config.labInterface;
  const log = app.log.child({ module: 'lab-interface' });
  // The demo clinic's lab messages come in through the interface's own path, listener or not.
  if (deps.config.demo) {
    app.addHook('onReady', async () => {
      await seedDemoLabMessages(deps, log).catch((error: unknown) => log.error({ err: loggableError(error) }, 'lab interface: the demo messages failed'));
    });
  }
  if (settings.mllp) {
    const mllp = settings.mllp;
    // The embedded engine runs one statement at a time on this thread, and a screen's read waits
    // behind every transaction open: messages from several connections are filed one after
    // another, so a read waits for one at most (bench/lab-interface.ts). PostgreSQL files them side by side.
    const filing = deps.config.databaseUrl ? <T>(work: () => Promise<T>) => work() : oneAtATime();
    app.addHook('onReady', async () => {
      app.labInterface.mllp = await listenMllp(
        { ...mllp, maxMessageBytes: settings.maxMessageBytes, maxConnections: settings.maxConnections, idleMs: settings.idleMs },
        { message: (bytes, peer) => filing(() => receiveHl7(deps, bytes, peer, log)), oversize: (head, peer) => refuseOversize(deps, head, peer, log) },
        log,
      );
    });
    app.addHook('onClose', async () => {
      await app.labInterface.mllp?.close();
    });
  }
};

/** Runs work one call after another, in the order asked (a failure does not stop the next). */
function oneAtATime() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}
