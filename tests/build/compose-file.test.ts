import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig, SETTING_NAMES } from '../../server/config.ts';
import { SECRET_SETTINGS } from '../../server/secrets/secret-files.ts';

// Issue 55: compose.yaml is what a clinic's IT person runs, and no test run has Docker Compose
// and a registry to start it. What can silently go wrong in it is checked here against the app
// itself: a setting the app does not read (a typo sets nothing), a secret it names but does not
// mount, a secret file that could be committed, an environment the app's configuration refuses,
// and a volume or port that is not the image's. The image itself is run by CI's container step.

const REPO = path.resolve(import.meta.dirname, '../..');
const compose = parse(fs.readFileSync(path.join(REPO, 'compose.yaml'), 'utf8')) as {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
  volumes: Record<string, unknown>;
};
type Service = {
  environment?: Record<string, string>;
  secrets?: string[];
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  build?: { dockerfile: string };
};
const containerfile = fs.readFileSync(path.join(REPO, 'Containerfile'), 'utf8');
/** A value the run stage's ENV gives (the last ENV instruction naming it). */
const imageEnv = (name: string) => [...containerfile.matchAll(new RegExp(`\\b${name}=(\\S+)`, 'g'))].at(-1)?.[1];
const app = compose.services.app!;
const secretsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-compose-'));
afterAll(() => fs.rmSync(secretsDir, { recursive: true, force: true }));

describe('compose.yaml', () => {
  it('gives the app only settings it reads, each secret as a file it mounts, from a folder git ignores', () => {
    const known = new Set([...SETTING_NAMES, ...SECRET_SETTINGS.map((name) => `${name}_FILE`)]);
    expect(Object.keys(app.environment!).filter((name) => !known.has(name))).toEqual([]);
    for (const [name, value] of Object.entries(app.environment!).filter(([name]) => name.endsWith('_FILE'))) {
      const secret = /^\/run\/secrets\/([a-z_]+)$/.exec(value)?.[1];
      expect(secret, name).toBeDefined();
      expect(app.secrets, name).toContain(secret);
      const file = compose.secrets[secret!]!.file;
      expect(file, secret).toMatch(/^\.\/secrets\//);
      // `git check-ignore` exits 0 for a path git would not commit.
      expect(() => execFileSync('git', ['check-ignore', '-q', file], { cwd: REPO }), file).not.toThrow();
    }
  });

  it('is a configuration the app accepts: PostgreSQL at the db service, the password from its file, no demo', () => {
    const env: NodeJS.ProcessEnv = { NODE_ENV: 'production', HOST: imageEnv('HOST'), DATA_DIR: secretsDir };
    for (const [name, value] of Object.entries(app.environment!)) {
      const secret = /^\/run\/secrets\/([a-z_]+)$/.exec(value)?.[1];
      if (!secret) {
        env[name] = value;
        continue;
      }
      const file = path.join(secretsDir, secret);
      fs.writeFileSync(file, secret.endsWith('_key') ? `${Buffer.alloc(32, 7).toString('base64')}\n` : `${secret}-value-long-enough\n`);
      env[name] = file;
    }
    const config = loadConfig(env);
    const url = new URL(config.databaseUrl!);
    expect(url.hostname).toBe('db');
    expect(url.password).toBe('db_password-value-long-enough');
    expect(config.demo).toBe(false);
    expect(config.files.key).toHaveLength(32);
  });

  it("starts the app once the database is healthy, with the image's data volume and port", () => {
    expect(app.build!.dockerfile).toBe('Containerfile');
    expect(compose.services.db!.healthcheck!.test).toContain('pg_isready');
    expect(app.depends_on!.db!.condition).toBe('service_healthy');
    expect(app.volumes).toContain(`app-data:${imageEnv('DATA_DIR')}`);
    expect(compose.services.db!.volumes![0]).toMatch(/^db-data:/);
    expect(Object.keys(compose.volumes)).toEqual(['db-data', 'app-data']);
    // Published on this machine only, to the port the image listens on.
    expect(app.ports).toEqual([`127.0.0.1:\${APP_PORT:-5000}:${imageEnv('PORT')}`]);
  });
});
