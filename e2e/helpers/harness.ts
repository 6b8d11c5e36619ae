import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createServer, type ViteDevServer } from 'vite';
import { REPO_ROOT } from './server.ts';
import appConfig from '../../vite.config.ts';

const proxied = appConfig.server?.proxy?.['/api'];
if (typeof proxied !== 'object') throw new Error('vite.config.ts: expected an object for the /api proxy');
const devApiProxy: object = proxied;

/**
 * A component harness page (e2e/harness/<name>/) on a Vite dev server that proxies /api to a
 * running app server, as `npm run dev` does: the component runs in a real browser against the
 * real API, before any screen of the app hosts it.
 */
export async function startHarness(name: string, apiBaseUrl: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: ViteDevServer = await createServer({
    configFile: false,
    root: path.join(REPO_ROOT, 'e2e', 'harness', name),
    plugins: [react(), tailwindcss()],
    logLevel: 'warn',
    server: {
      host: '127.0.0.1',
      port: 0,
      // The proxy `npm run dev` uses, pointed at this server.
      proxy: { '/api': { ...devApiProxy, target: apiBaseUrl } },
      fs: { allow: [REPO_ROOT] },
    },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('harness did not start');
  return { url: `http://127.0.0.1:${address.port}/`, close: () => server.close() };
}
