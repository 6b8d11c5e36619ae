import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The SPA lives in web/ and is built into dist/web, which the server serves in production.
// In development Vite proxies the API and the live socket to the server (see scripts/dev.mjs).
const apiPort = Number(process.env.API_PORT ?? 5001);

export default defineConfig({
  root: 'web',
  plugins: [react(), tailwindcss()],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // Maps for debugging by hand, named by no bundle; the server never serves them in production.
    sourcemap: 'hidden',
    rolldownOptions: {
      output: {
        // React changes least often: its own chunk stays cached across deploys.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 5000),
    proxy: {
      '/api': `http://127.0.0.1:${apiPort}`,
      '/ws': { target: `ws://127.0.0.1:${apiPort}`, ws: true },
    },
  },
});
