import net from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * The client's address, as the trusted proxies report it (config TRUST_PROXY), and only ever a
 * valid IP address: a forwarded value that is not one (a misconfigured proxy passing on what a
 * client wrote) is not believed, and the nearest peer's address is used instead. Everything
 * that keys on an address (sign-in throttling, the audit trail, logs) reads it here.
 */
export function clientAddress(request: FastifyRequest): string {
  if (net.isIP(request.ip)) return request.ip;
  const peer = request.socket?.remoteAddress ?? '';
  return net.isIP(peer) ? peer : 'unknown';
}
