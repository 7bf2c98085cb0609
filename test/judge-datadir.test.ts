import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The built launcher, run as an administrator would (`pnpm build` first), on data directories it
// cannot write: one line naming the directory and the problem, no stack, a non-zero exit.
const JUDGE = fileURLToPath(new URL('../bin/judge', import.meta.url));
const env = () => {
  const e: Record<string, string> = { ...(process.env as Record<string, string>), JUDGE_AUTH_ARGON2_MEMORY_KIB: '1024', JUDGE_AUTH_ARGON2_ITERATIONS: '1', JUDGE_LOG_LEVEL: 'warn' };
  e.JUDGE_ADMIN_PASSWORD = 'a-password-for-tests';
  return e;
};
const judge = (args: string[]) => spawnSync(JUDGE, args, { env: env(), encoding: 'utf8', input: '', timeout: 60_000 });

const root = mkdtempSync(join(tmpdir(), 'judge-datadir-'));
const mounts: string[] = [];
afterAll(() => {
  for (const m of mounts.reverse()) spawnSync('umount', [m]);
  rmSync(root, { recursive: true, force: true });
});

/** Expects exactly one line on stderr (and nothing on stdout) and a failing exit. */
function refusedWithOneLine(r: ReturnType<typeof judge>, line: RegExp): void {
  expect(r.status, r.stderr).not.toBe(0);
  expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr.trim()).toMatch(line);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a data directory the judge cannot write', () => {
  it('init under a regular file: names the directory and the problem', () => {
    const file = join(root, 'a-file');
    writeFileSync(file, 'not a directory');
    const dir = join(file, 'data');
    const r = judge(['init', '--data-dir', dir]);
    refusedWithOneLine(r, new RegExp(`^judge: cannot write to ${escape(dir)} \\(a part of the path is not a directory\\)$`));
  });

  // root ignores permission bits: a read-only bind mount is what refuses root's writes. Mounted
  // in a hook, not while the tests are collected: hooks do not run when a filter skips them all.
  const initialised = join(root, 'initialised');
  const readOnly = join(root, 'read-only');
  let why: string | undefined;
  beforeAll(() => {
    mkdirSync(readOnly);
    const made = judge(['init', '--data-dir', initialised]);
    if (made.status !== 0) why = `init failed: ${made.stderr}`;
    else {
      try {
        execFileSync('mount', ['--bind', '-o', 'ro', initialised, readOnly], { stdio: 'pipe' });
        mounts.push(readOnly);
      } catch (e) {
        why = String((e as { stderr?: Buffer }).stderr ?? e).trim();
      }
    }
    if (why) console.log(`skipping the read-only data directory tests: cannot bind-mount ${initialised} read-only (${why})`);
  });

  it.for(['serve', 'init', 'up'])('%s on a read-only mount: one line, no stack, non-zero exit', (command, ctx) => {
    if (why) return ctx.skip(why);
    const r = judge([command, '--data-dir', readOnly, ...(command === 'init' ? [] : ['--port', '0']), ...(command === 'up' ? ['--no-runner'] : [])]);
    refusedWithOneLine(r, new RegExp(`^judge: cannot write to ${escape(readOnly)} \\(read-only file system\\)$`));
    expect(r.stdout).toBe('');
  });
});
