import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompress } from './web/build/precompress.ts';
import { signedInChunkGroups } from './web/build/signed-in-chunks.ts';

// The SPA lives in web/ and is built into dist/web, which the server serves in production.
// In development Vite proxies the API and the live socket to the server (see scripts/dev.mjs).
const apiPort = Number(process.env.API_PORT ?? 5001);

export default defineConfig({
  root: 'web',
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // Maps for debugging by hand, named by no bundle; the server never serves them in production.
    sourcemap: 'hidden',
    // Read by the weight budget test (tests/build/weight-budget.test.ts): which chunks each page loads.
    manifest: true,
    // Every browser the app supports preloads modules itself (Chrome 66, Safari 17, Firefox 115):
    // Vite's stand-in for older ones was 0.4 KB of the landing page for nothing.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        // React changes least often: its own chunk stays cached across deploys. Every other
        // library goes with the code that uses it, so a screen's libraries load with that screen.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // The signed-in frame and its dashboard in three chunks rather than 45 (issue 29).
            signedInChunkGroups(path.resolve(import.meta.dirname, 'web')),
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 5000),
    proxy: {
      // The Host header is kept (a string target would rewrite it): the API's same-origin check
      // compares the browser's Origin with it, and the links it hands out point back here.
      '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
      '/ws': { target: `ws://127.0.0.1:${apiPort}`, ws: true },
    },
  },
});
