import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { precompressDir } from '../../web/build/precompress.ts';

/** Text files of the stand-in build, long enough that compressing them pays. */
export const FAKE_TEXT_ASSETS: Record<string, string> = {
  'index.html': `<!doctype html><title>app</title>${'<!-- padding -->'.repeat(100)}`,
  'assets/app-1234.js': `console.log(1);${'/* padding */'.repeat(100)}`,
  'assets/app-1234.css': `body{margin:0}${'/* padding */'.repeat(100)}`,
  'favicon.svg': `<svg>${'<!-- padding -->'.repeat(100)}</svg>`,
  'robots.txt': 'User-agent: *\nAllow: /$\nDisallow: /\n',
};

/**
 * A stand-in for a built web app (WEB_DIST) in a temporary folder: text assets compressed as
 * the build compresses them, a source map, and the build manifest. Remove it with `remove()`.
 */
export async function fakeWebDist(): Promise<{ dir: string; remove: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.mkdirSync(path.join(dir, '.vite'));
  for (const [file, content] of Object.entries(FAKE_TEXT_ASSETS)) fs.writeFileSync(path.join(dir, file), content);
  fs.writeFileSync(path.join(dir, 'assets', 'app-1234.js.map'), '{"version":3,"sourcesContent":["secret"]}');
  fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), '{}');
  await precompressDir(dir);
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
