// How `npm run build` bundles the server and the admin commands (issue 55). Every package is
// bundled in except those named in package.json's `dependencies`: they are the ones that read
// their own files or load native code at run time (the embedded engine's WebAssembly, argon2's
// binary, pdfkit's fonts), so a production install (`npm ci --omit=dev`, the container image)
// holds only them. A package the server imports belongs in `dependencies` only for that reason.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** Native add-ons that bundled packages try to load and do without (pg, ws): never installed. */
export const OPTIONAL_ADDONS = ['pg-native', 'bufferutil', 'utf-8-validate'];

export const ADMIN_COMMANDS = ['create-admin', 'backup', 'restore', 'import-rxnorm'];

/** esbuild's options: dist/server/index.js and dist/scripts/<command>.js, sharing chunks. */
export function serverBundleOptions(outdir = 'dist') {
  return {
    entryPoints: ['server/index.ts', ...ADMIN_COMMANDS.map((name) => `scripts/${name}.ts`)],
    outbase: '.',
    outdir,
    entryNames: '[dir]/[name]',
    chunkNames: 'server/chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // A package's ES module build where it has one: a dynamic import() of a bundled CommonJS
    // module yields only its default export (the S3 client's classes came back undefined).
    mainFields: ['module', 'main'],
    sourcemap: true,
    external: [...Object.keys(pkg.dependencies), ...OPTIONAL_ADDONS],
    // Bundled CommonJS packages call require() for Node's own modules, which an ES module lacks.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    logLevel: 'warning',
  };
}
