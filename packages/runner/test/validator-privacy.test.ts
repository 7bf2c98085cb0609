/**
 * Secret test data stays the runner's: the package and the validator's build
 * may be private to the runner's user (0700/0600, as the package cache keeps them), yet the
 * validator, run as a slot uid, still judges; and while it runs, no process on the machine shows a
 * path of the package in its arguments (/proc/<pid>/cmdline is readable by every local user):
 * the validator itself sees in-sandbox paths only. Real bwrap and validator.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasBwrap, judgeFixture, SUM_C, sumPackage } from './judging.js';

const VALIDATOR = ['import sys, time', 'ans = open(sys.argv[2]).read().split()', 'out = sys.stdin.read().split()', 'time.sleep(0.6)', 'sys.exit(42 if out == ans else 43)', ''].join('\n');

/** Every process's arguments, by pid. */
function commandLines(): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const args = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (args.length) out.set(Number(name), args);
    } catch {
      /* gone */
    }
  }
  return out;
}

/** Directories 0700, files 0600, as the package cache keeps them. */
function makePrivate(p: string): void {
  const st = fs.lstatSync(p);
  if (st.isDirectory()) {
    fs.chmodSync(p, 0o700);
    for (const e of fs.readdirSync(p)) makePrivate(path.join(p, e));
  } else fs.chmodSync(p, 0o600);
}

describe.skipIf(!hasBwrap || process.geteuid?.() !== 0)('secret test data and the validator', () => {
  const f = judgeFixture();

  it('a private package is judged by its validator, and no process shows its paths while the validator runs', async () => {
    const problem = await f.problemOf({ ...sumPackage(), 'problem.yaml': 'name: Sum\nvalidation: custom\n', 'output_validators/v/validate.py': VALIDATOR });
    makePrivate(problem.dir);
    const seen: string[][] = [];
    const leaks: string[][] = [];
    let done = false;
    const judging = f.judge(problem, { files: { 'sum.c': SUM_C } }).finally(() => (done = true));
    while (!done) {
      for (const args of commandLines().values()) {
        if (args.some((a) => a.includes(problem.dir))) leaks.push(args);
        if (args.some((a) => a.startsWith('/judge/data/'))) seen.push(args);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    const r = await judging;
    expect(r.verdict, r.log).toBe('AC');
    expect(leaks).toEqual([]);
    expect(seen.length).toBeGreaterThan(0);
    // the validator itself (not bwrap, whose arguments name only the copies in its box)
    const validator = seen.find((a) => !a[0]!.endsWith('bwrap') && a.includes('/judge/feedback/'));
    expect(validator).toBeDefined();
    for (const a of validator!.filter((x) => x.startsWith('/'))) expect(a).toMatch(/^\/(box|judge|usr)\//);
    // the validator's build in the cache is the runner's alone
    const build = `${problem.dir}.build`;
    expect(fs.statSync(build).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(build, 'validator')).mode & 0o777).toBe(0o700);
  }, 120_000);
});
