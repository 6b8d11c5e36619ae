// `npm run create-admin | backup | restore | import-rxnorm`: the admin commands, from the build
// (as `npm start` runs the server), so a production install without dev dependencies can run them (issue 48).
import { ensureBuilt } from './run-built.mjs';

const COMMANDS = ['create-admin', 'backup', 'restore', 'import-rxnorm'];
const [name, ...args] = process.argv.slice(2);
if (!COMMANDS.includes(name)) {
  console.error(`Usage: node scripts/run-command.mjs <${COMMANDS.join('|')}> [arguments]`);
  process.exit(2);
}
ensureBuilt();
process.argv = [process.argv[0], `dist/scripts/${name}.js`, ...args];
await import(`../dist/scripts/${name}.js`);
