// What `npm start` and the admin commands share: run the build of what is checked out, building
// it first when it is missing or stale (issue 36), and saying plainly what to do where this
// install cannot build (a production install without dev dependencies: issue 48).
import { execSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { staleBuildReason } from './build-stamp.mjs';

/** Whether this install has the tools `npm run build` needs (they are dev dependencies). */
function canBuild() {
  try {
    const require = createRequire(import.meta.url);
    require.resolve('vite/package.json');
    require.resolve('esbuild/package.json');
    return true;
  } catch {
    return false;
  }
}

/** Builds first if the build is missing or stale; exits with advice where this install cannot build. */
export function ensureBuilt() {
  const stale = staleBuildReason();
  if (!stale) return;
  if (!canBuild()) {
    console.error(
      `The app must be built first (${stale}), and this install has no build tools (installed without dev dependencies). ` +
        'Build where they are installed (npm ci && npm run build) and bring dist/ along, or install with dev dependencies. See docs/production.md.',
    );
    process.exit(1);
  }
  console.log(`Building the app first (npm run build): ${stale}.`);
  execSync('npm run build', { stdio: 'inherit' });
}
