// `npm run bench`: runs each benchmark in its own process and prints its JSON figures.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

fs.mkdirSync('bench/results', { recursive: true });
for (const name of [
  'patients-search',
  'hot-reads',
  'hostile-bodies',
  'live-fanout',
  'chat',
  'calendar',
  'labs',
  'lab-interface',
  'chart',
  'rxnorm-import',
  'prescriptions',
  'reports',
  'fhir',
  'audit-lookups',
  'bulk-export',
  'files',
  'backup',
  'lighthouse',
  'long-tasks',
  'first-screen',
]) {
  const out = spawnSync('npx', ['tsx', `bench/${name}.ts`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  process.stdout.write(out.stdout);
  fs.writeFileSync(`bench/results/${name}-${process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite'}.json`, out.stdout);
  if (out.status !== 0) process.exit(out.status ?? 1);
}
