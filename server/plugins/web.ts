import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { Config } from '../config.ts';
import { setDemoHint } from '../http/cookies.ts';

/**
 * Serves the built SPA when it exists. Hashed assets are cached for a year; index.html is
 * never cached so a deploy reaches every browser. Unknown non-API GETs get index.html, and the
 * client router shows its own 404 page; unknown /api paths keep their JSON 404.
 */
export const webPlugin = fp(async (app: FastifyInstance, opts: { config: Config }) => {
  const root = opts.config.webDist;
  // The build writes source maps for debugging by hand (vite.config.ts, 'hidden': no bundle
  // names them); in production they hold the app's whole source and are never served.
  const servesMaps = opts.config.env !== 'production';
  const indexFile = path.join(root, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn(`No built web app at ${root}; serving the API only (run npm run build)`);
    return;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // The build wrote .br and .gz copies of every text file (web/build/precompress.ts): send the
    // one the browser accepts, with Vary: Accept-Encoding.
    preCompressed: true,
    ...(servesMaps ? {} : { globIgnore: ['**/*.map'] }),
    setHeaders(res, filePath) {
      res.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    // Every page load learns demo mode with the page itself: no request of its own.
    setDemoHint(reply, request, opts.config);
    return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
  };

  app.get('/', (request, reply) => sendIndex(request, reply));
  app.get('/*', (request, reply) => {
    const url = request.url.split('?')[0]!;
    // Unknown API paths and missing files get the one not-found answer (JSON with its code).
    if (url.startsWith('/api/') || url === '/api' || url.startsWith('/fhir/')) return reply.callNotFound();
    const file = path.join(root, path.normalize(decodeURIComponent(url)).replace(/^([/\\])+/, ''));
    if (!servesMaps && file.endsWith('.map')) return reply.callNotFound();
    // Nothing under a dot name (the build's .vite/manifest.json) is part of the site.
    if (
      path
        .relative(root, file)
        .split(path.sep)
        .some((part) => part.startsWith('.'))
    )
      return reply.callNotFound();
    if (file.startsWith(root + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) {
      return reply.sendFile(path.relative(root, file));
    }
    // A missing asset is a real 404; any other path is a client-side route.
    if (url.startsWith('/assets/')) return reply.callNotFound();
    return sendIndex(request, reply);
  });
});
