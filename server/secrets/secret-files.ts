import fs from 'node:fs';

/**
 * The settings that are secrets, each of which may be given as a file instead (issue 55): with
 * `FILES_KEY_FILE=/run/secrets/files_key`, FILES_KEY is that file's text. It is how Docker and
 * Compose secrets, Kubernetes secret volumes and systemd credentials hand a process a secret
 * without putting it in its environment, where `docker inspect` and /proc show it.
 */
export const SECRET_SETTINGS = [
  'FILES_KEY',
  'AUDIT_HEAD_KEY',
  'METRICS_TOKEN',
  'DATABASE_URL',
  'DATABASE_PASSWORD',
  'S3_SECRET_ACCESS_KEY',
  'OIDC_CLIENT_SECRET',
] as const;

/**
 * The environment with each `<NAME>_FILE` read into `<NAME>` (one trailing line end dropped, as
 * editors and `echo` add one). Both given, or a file that cannot be read, stops the start.
 */
export function withSecretFiles(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  const problems: string[] = [];
  for (const name of SECRET_SETTINGS) {
    const file = env[`${name}_FILE`];
    if (file === undefined) continue;
    if (env[name] !== undefined) {
      problems.push(`  ${name} and ${name}_FILE: give one of them, not both`);
      continue;
    }
    try {
      out[name] = fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(`  ${name}_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
  if (problems.length > 0) throw new Error(`Invalid environment:\n${problems.join('\n')}`);
  return out;
}

/**
 * DATABASE_URL with DATABASE_PASSWORD put in, where the URL names none: the password can then
 * live in a secret file while the URL (host, user, database) stays plain configuration.
 */
export function databaseUrlOf(url: string | undefined, password: string | undefined): string | undefined {
  if (url === undefined || password === undefined) return url;
  const parsed = new URL(url);
  if (parsed.password !== '') throw new Error('Invalid environment:\n  DATABASE_PASSWORD is given, and DATABASE_URL names a password too: give it once');
  parsed.password = password;
  return parsed.toString();
}
