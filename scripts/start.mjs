// `npm start`: runs the build of what is checked out. A missing build, or one made from other
// sources (pulled new code, an edited file), is rebuilt first, and the log says why (issue 36).
// Supervisors run `node scripts/start.mjs` directly (docs/production.md): then their SIGTERM
// reaches the server itself, not npm.
import { ensureBuilt } from './run-built.mjs';

ensureBuilt();
process.env.NODE_ENV ??= 'production';
await import('../dist/server/index.js');
