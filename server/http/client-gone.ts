import type { FastifyReply } from 'fastify';

/**
 * Aborts when the connection closes before the answer was sent: the client navigated away or
 * sent a newer request instead, and whatever the server still does for this one is wasted.
 */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
