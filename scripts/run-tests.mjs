#!/usr/bin/env node
// Runs the whole vitest suite and closes with the plain totals line CI reads: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}.vitest-results.json`;

// vitest strips types without checking them: the tests are type-checked first, and a type error
// counts as one failure. Build mode checks them against the packages' declarations, rebuilding a
// package only when its sources changed since the last build, so no source is checked twice.
const typecheck = spawnSync('npx', ['tsc', '-b', 'tsconfig.test.json'], { cwd: root, stdio: 'inherit' });
const typeFailures = typecheck.status === 0 ? 0 : 1;
if (typeFailures) console.log('The tests do not type-check (tsc -b tsconfig.test.json): counted as one failure.');

rmSync(out, { force: true });
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)];
const run = spawnSync('npx', args, { cwd: root, stdio: 'inherit' });
if (!existsSync(out)) {
  console.log(`0 passed, ${1 + typeFailures} failed`);
  process.exit(run.status || 1);
}
const r = JSON.parse(readFileSync(out, 'utf8'));
const suitesBroken = r.testResults.filter((t) => t.status === 'failed' && t.assertionResults.length === 0).length;
const failed = r.numFailedTests + suitesBroken + typeFailures;
console.log(`${r.numPassedTests} passed, ${failed} failed${r.numPendingTests ? `, ${r.numPendingTests} skipped` : ''}`);
process.exit(run.status === 0 && failed === 0 && r.numPassedTests > 0 ? 0 : 1);
