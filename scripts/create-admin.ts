// `npm run create-admin -- --email you@clinic.org [--first-name A --last-name B]`: the first admin
// of a clinic that runs without the demo. Prints a one-time link to set the password. Uses the
// same environment as the app (DATABASE_URL, or the embedded database in DATA_DIR, which must
// not be open in a running app: the embedded engine allows one process at a time).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { DataDirInUseError } from '../server/db/data-dir-lock.ts';
import { openDatabase } from '../server/db/database.ts';
import { HttpError, invalidFields } from '../server/http/errors.ts';
import { createAdmin, ZNewAdmin } from '../server/modules/users/create-admin.ts';

const USAGE = 'Usage: npm run create-admin -- --email you@clinic.org [--first-name Alex --last-name Morgan]';

/** What went wrong, in words a person at the terminal can act on. */
function explain(error: unknown): string {
  if (error instanceof HttpError) {
    const fields = (error.extra.errors ?? []) as { path: string; message: string }[];
    return fields.length ? fields.map((f) => `--${f.path.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${f.message}`).join('\n') : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: { email: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }).values;
  } catch (error) {
    console.error(`${explain(error)}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (!args.email) {
    console.error(`--email is required.\n${USAGE}`);
    return 2;
  }
  const input = {
    email: args.email,
    ...(args['first-name'] === undefined ? {} : { firstName: args['first-name'] }),
    ...(args['last-name'] === undefined ? {} : { lastName: args['last-name'] }),
  };
  // Checked before the database is opened too, so a typo is told at once.
  const checked = ZNewAdmin.safeParse(input);
  if (!checked.success) throw invalidFields(checked.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pg') });
  try {
    const { user, link } = await createAdmin({ db: database.db, config }, input);
    console.log(`Created the admin ${user.email} (${database.engine === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'}).`);
    console.log(`Open this link to set the password. It works once, until ${link.expiresAt}; keep it private:`);
    console.log(link.url);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      error instanceof DataDirInUseError || error instanceof HttpError || /^Invalid environment/.test(String((error as Error)?.message))
        ? `create-admin: ${explain(error)}`
        : error,
    );
    process.exit(1);
  },
);
