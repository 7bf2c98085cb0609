/**
 * The runner's last line of defence (stray-errors.ts), in a process of its own as judge-runner has
 * it: an error that escapes one piece of work (an 'error' event nobody listens to) fails that work
 * and stops its runs, the other work finishes, every escape is logged as a BUG with its stack, and
 * the process lives on. Runs the built module (dist/), as the judge-runner program does.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('../dist/stray-errors.js', import.meta.url));

const SCRIPT = `
import { EventEmitter } from 'node:events';
const { StrayErrors } = await import(process.argv[1]);
const strays = new StrayErrors((line) => console.log(line));
strays.install();
const bad = strays.run('job bad', (signal) => new Promise(() => {
  signal.addEventListener('abort', () => console.log('bad: its runs stopped'));
  const cell = new EventEmitter();
  setTimeout(() => cell.emit('error', new Error('the sandbox launcher exited')), 20);
}));
const good = strays.run('job good', () => new Promise((resolve) => setTimeout(() => resolve('judged'), 300)));
const settled = await Promise.allSettled([bad, good]);
console.log('results ' + JSON.stringify(settled.map((r) => (r.status === 'fulfilled' ? r.value : r.reason.name + ': ' + r.reason.message))));
setTimeout(() => Promise.reject(new Error('a rejection of nobody')), 0);
setTimeout(() => console.log('alive after ' + strays.count), 100);
`;

describe('errors that escape a judging', () => {
  it('fail only the work they came from, are logged as bugs, and never end the process', async () => {
    const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = execFile(process.execPath, ['--input-type=module', '-e', SCRIPT, MODULE], { encoding: 'utf8', timeout: 20_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
      );
      child.stdin?.end();
    });
    expect(out).toMatch(/BUG: uncaught exception in job bad; the runner goes on: Error: the sandbox launcher exited\n\s+at /);
    expect(out).toContain('bad: its runs stopped');
    expect(out).toContain(`results ${JSON.stringify(['StrayError: an error escaped the judging: the sandbox launcher exited', 'judged'])}`);
    expect(out).toContain('BUG: unhandled rejection outside any judging; the runner goes on: Error: a rejection of nobody');
    expect(out).toContain('alive after 2');
    expect(code).toBe(0);
  });
});
