// `npm run import-rxnorm -- --dir /path/to/rrf`: imports the clinic's own copy of RxNorm (the
// release's RXNCONSO.RRF, RXNREL.RRF and RXNSAT.RRF; the folder holding them, or the unpacked
// release that holds rrf/) into the formulary: each clinical drug one item, in one transaction
// (server/modules/formulary/rxnorm-import.ts). Run it again with a newer release: an earlier
// import's items are updated, or retired when the release no longer has them; the starter list's
// and the clinic's own items are never changed. Uses the same environment as the app
// (DATABASE_URL, or the embedded database in DATA_DIR, which must not be open in a running app:
// the embedded engine allows one process at a time).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatCount } from '../domain/report-format.ts';
import { loadConfig } from '../server/config.ts';
import { DataDirInUseError } from '../server/db/data-dir-lock.ts';
import { openDatabase } from '../server/db/database.ts';
import { importRxNorm, RxNormFileError, type TRxNormImport } from '../server/modules/formulary/rxnorm-import.ts';

const USAGE = 'Usage: npm run import-rxnorm -- --dir /path/to/rxnorm/rrf';

/** The arguments, or the exit code when they are not usable (2) or only asked for help (0). */
function readArgs(): { dir: string } | number {
  let args;
  try {
    args = parseArgs({ options: { dir: { type: 'string' }, help: { type: 'boolean' } }, strict: true }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  if (!args.dir) {
    console.error(`--dir is required: the folder that holds RXNCONSO.RRF, RXNREL.RRF and RXNSAT.RRF.\n${USAGE}`);
    return 2;
  }
  if (!fs.statSync(args.dir, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`--dir: ${args.dir} is not a folder.\n${USAGE}`);
    return 2;
  }
  return { dir: path.resolve(args.dir) };
}

/** What the import did: each kind of outcome with its count, those that did not happen left out. */
function report(result: TRxNormImport): string[] {
  const lines = [
    `Clinical drugs in the release: ${formatCount(result.products)}`,
    `  added: ${formatCount(result.added)}, updated: ${formatCount(result.updated)}, unchanged: ${formatCount(result.unchanged)}`,
  ];
  const more: [number, string][] = [
    [result.retired, "retired (an earlier import's, no longer in the release: inactive, kept for the medications that name them)"],
    [result.leftAlone, 'left alone (the RxNorm code of a starter or clinic item: the clinic keeps it as it is)'],
    [result.skipped, 'skipped (another item already has the same name)'],
    [result.incomplete, 'not imported (the release gives no component, ingredient, strength or dose form, or the name is too long)'],
  ];
  for (const [count, what] of more) if (count) lines.push(`  ${what}: ${formatCount(count)}`);
  return lines;
}

async function main(): Promise<number> {
  const args = readArgs();
  if (typeof args === 'number') return args;
  const config = loadConfig();
  const pgliteDir = path.join(config.dataDir, 'pg');
  // A mistyped DATA_DIR must not become a new, empty database that then holds the formulary.
  if (!config.databaseUrl && !fs.existsSync(path.join(pgliteDir, 'PG_VERSION'))) {
    console.error(`There is no embedded database in ${config.dataDir} (DATA_DIR). Point DATA_DIR at the app's data directory, or set DATABASE_URL.`);
    return 1;
  }
  const database = await openDatabase({ url: config.databaseUrl, pgliteDir });
  try {
    const target = database.engine === 'pglite' ? `the embedded database in ${config.dataDir}` : 'PostgreSQL';
    console.log(`Importing RxNorm from ${args.dir} into ${target}. The three files are read and checked first; nothing is written until then.`);
    const result = await importRxNorm(database.db, args.dir, { onFileRead: (file, lines) => console.log(`Read ${file}: ${formatCount(lines)} lines.`) });
    for (const line of report(result)) console.log(line);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const plain = error instanceof RxNormFileError || error instanceof DataDirInUseError || /^Invalid environment/.test(String((error as Error)?.message));
    console.error(plain ? `import-rxnorm: ${(error as Error).message}` : error);
    process.exit(1);
  },
);
