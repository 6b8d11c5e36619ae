import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A stand-in for a built web app (WEB_DIST): index.html, a hashed asset with its source map and
 * a favicon, in a temporary folder. Remove it with `remove()` after the test file.
 */
export function fakeWebDist(): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>app</title>');
  fs.writeFileSync(path.join(dir, 'assets', 'app-1234.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'assets', 'app-1234.js.map'), '{"version":3,"sourcesContent":["secret"]}');
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg/>');
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
