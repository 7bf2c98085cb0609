#!/usr/bin/env node
// Runs the whole vitest suite and closes with the plain totals line CI reads: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}.vitest-results.json`;
rmSync(out, { force: true });
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`, ...process.argv.slice(2)];
const run = spawnSync('npx', args, { cwd: root, stdio: 'inherit' });
if (!existsSync(out)) {
  console.log('0 passed, 1 failed');
  process.exit(run.status || 1);
}
const r = JSON.parse(readFileSync(out, 'utf8'));
const suitesBroken = r.testResults.filter((t) => t.status === 'failed' && t.assertionResults.length === 0).length;
console.log(`${r.numPassedTests} passed, ${r.numFailedTests + suitesBroken} failed${r.numPendingTests ? `, ${r.numPendingTests} skipped` : ''}`);
process.exit(run.status === 0 && r.numFailedTests + suitesBroken === 0 && r.numPassedTests > 0 ? 0 : 1);
