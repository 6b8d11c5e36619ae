import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';

// Issue 55: a container's secrets come as files (Compose and Docker secrets, Kubernetes volumes),
// not as environment variables that `docker inspect` shows. Each secret setting takes a _FILE.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ehr-secrets-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const secret = (name: string, text: string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text, { mode: 0o600 });
  return file;
};
const base = { NODE_ENV: 'test', DATA_DIR: dir } as NodeJS.ProcessEnv;

describe('secret settings given as files', () => {
  it('read each file as the setting, without the line end an editor adds', () => {
    const config = loadConfig({
      ...base,
      METRICS_TOKEN_FILE: secret('metrics', 'a-metrics-token-of-length\n'),
      DATABASE_URL: 'postgres://clinic@db:5432/clinic',
      DATABASE_PASSWORD_FILE: secret('db', 'p@ss word/ü\r\n'),
    });
    expect(config.metricsToken).toBe('a-metrics-token-of-length');
    // The password goes into the URL encoded, so a character of its own cannot cut it short.
    expect(new URL(config.databaseUrl!).password).toBe(encodeURIComponent('p@ss word/ü'));
    expect(decodeURIComponent(new URL(config.databaseUrl!).password)).toBe('p@ss word/ü');
  });

  it('refuse a setting given twice, a file that cannot be read, and a password given twice, naming each', () => {
    expect(() => loadConfig({ ...base, METRICS_TOKEN: 'x'.repeat(20), METRICS_TOKEN_FILE: secret('m2', 'y'.repeat(20)) })).toThrow(
      /METRICS_TOKEN and METRICS_TOKEN_FILE: give one of them, not both/,
    );
    expect(() => loadConfig({ ...base, FILES_KEY_FILE: path.join(dir, 'absent') })).toThrow(/FILES_KEY_FILE: cannot read .*absent \(ENOENT\)/);
    expect(() => loadConfig({ ...base, DATABASE_URL: 'postgres://clinic:one@db/clinic', DATABASE_PASSWORD: 'two' })).toThrow(/give it once/);
  });

  it('leave a URL without DATABASE_PASSWORD as it is', () => {
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://clinic:pw@db:5432/clinic' }).databaseUrl).toBe('postgres://clinic:pw@db:5432/clinic');
  });
});
