// `npm run build`: the web app and the server, stamped with the sources they were built from
// (scripts/build-stamp.mjs). The stamp is taken before building, so a file saved during the build
// leaves the build stale, never wrongly fresh.
import { execSync } from 'node:child_process';
import { sourceStamp, writeStamp } from './build-stamp.mjs';

const stamp = sourceStamp();
execSync('npm run build:web', { stdio: 'inherit' });
execSync('npm run build:server', { stdio: 'inherit' });
writeStamp(stamp);
console.log(`Built from ${stamp.files} source files (${stamp.hash.slice(0, 12)}).`);
