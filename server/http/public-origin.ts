import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/** Where this server is reached, for links it hands out: PUBLIC_URL when set, else what the request was sent to. */
export const originOf = (deps: { config: Config }, request: FastifyRequest) =>
  deps.config.publicUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;
