// Prints the totals of every Vitest JSON report given, as CI's one plain line. Before it, each
// failure by file, name and first line of its message: CI shows only the tail of its output, and
// a failure that the long log above scrolled away could not be found again.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

let passed = 0;
let failed = 0;
const failures = [];
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    failed += 1;
    console.log(`missing report: ${file}`);
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const engine = path.basename(file, '.json').replace(/^vitest-/, '');
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0);
  for (const suite of report.testResults ?? []) {
    const where = path.relative(process.cwd(), suite.name);
    const assertions = suite.assertionResults ?? [];
    if (suite.status === 'failed' && assertions.length === 0) {
      failed += 1;
      failures.push(`${engine}: ${where}: ${firstLine(suite.message)}`);
    }
    for (const test of assertions) {
      if (test.status === 'failed') failures.push(`${engine}: ${where} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
  }
}
for (const failure of failures) console.log(`FAILED ${failure}`);
console.log(`${passed} passed, ${failed} failed`);

function firstLine(message) {
  return (message ?? 'no message').split('\n')[0].slice(0, 300);
}
