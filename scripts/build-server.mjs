// `npm run build:server`: the server and the admin commands, bundled (scripts/server-bundle.mjs).
import { rmSync } from 'node:fs';
import { build } from 'esbuild';
import { serverBundleOptions } from './server-bundle.mjs';

// Chunks are named by their content: a rebuild must not leave the last build's beside them.
for (const dir of ['dist/server', 'dist/scripts']) rmSync(dir, { recursive: true, force: true });
await build(serverBundleOptions());
