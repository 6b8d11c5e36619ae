import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { Config } from '../config.ts';

/**
 * Serves the built SPA when it exists. Hashed assets are cached for a year; index.html is
 * never cached so a deploy reaches every browser. Unknown non-API GETs get index.html, and the
 * client router shows its own 404 page; unknown /api paths keep their JSON 404.
 */
export const webPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  const root = opts.config.webDist;
  const indexFile = path.join(root, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn(`No built web app at ${root}; serving the API only (run npm run build)`);
    return;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    setHeaders(res, filePath) {
      res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`)
        ? 'public, max-age=31536000, immutable'
        : 'no-cache');
    },
  });
  const sendIndex = (reply: import('fastify').FastifyReply) =>
    reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');

  app.get('/', (_request, reply) => sendIndex(reply));
  app.get('/*', (request, reply) => {
    const url = request.url.split('?')[0]!;
    if (url.startsWith('/api/') || url === '/api') {
      return reply.code(404).send({ message: `Route GET ${url} not found` });
    }
    const file = path.join(root, path.normalize(decodeURIComponent(url)).replace(/^([/\\])+/, ''));
    if (file.startsWith(root + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) {
      return reply.sendFile(path.relative(root, file));
    }
    // A missing asset is a real 404; any other path is a client-side route.
    if (url.startsWith('/assets/')) return reply.code(404).send({ message: 'Not found' });
    return sendIndex(reply);
  });
});
