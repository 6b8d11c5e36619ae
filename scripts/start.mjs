// `npm start`: runs the built app, building it first when no build exists.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const built = existsSync('dist/server/index.js') && existsSync('dist/web/index.html');
if (!built) {
  console.log('No build found; building the app first (npm run build)...');
  execSync('npm run build', { stdio: 'inherit' });
}
process.env.NODE_ENV ??= 'production';
await import('../dist/server/index.js');
