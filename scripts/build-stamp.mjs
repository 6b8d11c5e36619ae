// What a build was made from: a hash of every source it reads, so `npm start` can tell a build
// of yesterday's checkout from one of today's (issue 36). Plain Node, no dependencies: it runs
// before anything is built.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The sources of `npm run build`: the app's code and the files that configure how it is built. */
export const BUILD_INPUTS = {
  dirs: ['server', 'domain', 'web'],
  files: [
    'package.json',
    'package-lock.json',
    'vite.config.ts',
    'tsconfig.json',
    // The admin commands, built beside the server (issue 48: they need no dev tools at run time).
    'scripts/create-admin.ts',
    'scripts/backup.ts',
    'scripts/restore.ts',
    'scripts/backup-command.ts',
    'scripts/import-rxnorm.ts',
    'scripts/server-bundle.mjs',
  ],
};
/**
 * What a release holds of those sources: a build shipped without them (the container image,
 * issue 55) still reads its package files and the migrations it applies at start, so a stamp
 * also covers these alone, and a release whose migrations are not its build's is refused.
 */
const RELEASE_INPUTS = { dirs: ['server/db/migrations'], files: ['package.json', 'package-lock.json'] };
/** Sources only a checkout has: where they are absent, the tree is a release. */
const CHECKOUT_ONLY = ['web', 'domain'];
export const STAMP_FILE = 'dist/build-stamp.json';
/** What a build must hold for `npm start` and the admin commands to run from it. */
const BUILT_FILES = [
  'dist/server/index.js',
  'dist/web/index.html',
  'dist/scripts/create-admin.js',
  'dist/scripts/backup.js',
  'dist/scripts/restore.js',
  'dist/scripts/import-rxnorm.js',
];

function* filesUnder(root, dir) {
  const entries = readdirSync(path.join(root, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(root, relative);
    else if (entry.isFile()) yield relative;
  }
}

/** The hash of some inputs under `root`: each file's path and bytes, in a fixed order. */
function hashOf(root, inputs) {
  const hash = createHash('sha256');
  const files = [
    ...inputs.dirs.filter((dir) => existsSync(path.join(root, dir))).flatMap((dir) => [...filesUnder(root, dir)]),
    ...inputs.files.filter((file) => existsSync(path.join(root, file))),
  ];
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(root, file)))
      .update('\0');
  return { hash: hash.digest('hex'), files: files.length };
}

/** The stamp of the build's inputs under `root`, and of the part of them a release keeps. */
export function sourceStamp(root = process.cwd()) {
  return { ...hashOf(root, BUILD_INPUTS), release: hashOf(root, RELEASE_INPUTS).hash };
}

const isRelease = (root) => CHECKOUT_ONLY.every((dir) => !existsSync(path.join(root, dir)));

export function readStamp(root = process.cwd()) {
  try {
    return JSON.parse(readFileSync(path.join(root, STAMP_FILE), 'utf8'));
  } catch {
    return null;
  }
}

export function writeStamp(stamp, root = process.cwd()) {
  writeFileSync(path.join(root, STAMP_FILE), `${JSON.stringify({ ...stamp, builtAt: new Date().toISOString() }, null, 2)}\n`);
}

/** Why the build in `root` cannot be run as it is, or null when it is the build of these sources. */
export function staleBuildReason(root = process.cwd(), current = sourceStamp(root)) {
  if (BUILT_FILES.some((file) => !existsSync(path.join(root, file)))) return 'no build found';
  const stamp = readStamp(root);
  if (!stamp) return 'the build has no record of its sources';
  if (isRelease(root)) {
    return stamp.release === current.release ? null : 'its package files or migrations are not those it was built with';
  }
  if (stamp.hash !== current.hash) return `the sources changed since it was built (${stamp.builtAt ?? 'at an unknown time'})`;
  return null;
}
