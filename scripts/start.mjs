// `npm start`: runs the build of what is checked out. A missing build, or one made from other
// sources (pulled new code, an edited file), is rebuilt first, and the log says why (issue 36).
import { execSync } from 'node:child_process';
import { staleBuildReason } from './build-stamp.mjs';

const stale = staleBuildReason();
if (stale) {
  console.log(`Building the app first (npm run build): ${stale}.`);
  execSync('npm run build', { stdio: 'inherit' });
}
process.env.NODE_ENV ??= 'production';
await import('../dist/server/index.js');
