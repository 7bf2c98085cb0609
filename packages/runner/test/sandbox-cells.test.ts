/**
 * The sandbox's cells: runs reuse a launcher and its cgroups, so a cell must carry nothing from
 * one run to the next (peak memory, CPU time, processes), and a cell whose launcher died must be
 * replaced without the next run noticing. Real bwrap, real cgroups, real compiler.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox, compile, loadLanguages, type CompileResult, type Limits } from '@judge/runner';

const MiB = 1024 * 1024;
const LIMITS: Limits = { cpuMs: 2000, wallMs: 5000, memoryBytes: 256 * MiB, pids: 16, outputBytes: MiB };
const hasBwrap = Sandbox.findBwrap() !== null;
const c = loadLanguages().get('c');
const withCgroups = hasBwrap && c?.present === true && process.geteuid?.() === 0;

/** Touches 160 MiB, burns about 300 ms of CPU, and leaves four sleepers behind in a new session. */
const HEAVY = `#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
int main(void) {
  char *p = malloc(160u << 20);
  memset(p, 1, 160u << 20);
  for (int i = 0; i < 4; i++) if (fork() == 0) { setsid(); execl("/usr/bin/sleep", "sleep", "100", (char *)0); _exit(1); }
  clock_t t = clock();
  volatile unsigned long x = 0;
  while (clock() - t < CLOCKS_PER_SEC * 3 / 10) x++;
  return p[12345] - 1;
}
`;

/** Starts as many processes at once as its argument says (sleeping 200 ms), and says how many it got. */
const FORKS = `#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
int main(int argc, char **argv) {
  int n = atoi(argv[1]), got = 0;
  for (int i = 0; i < n; i++) { pid_t p = fork(); if (p == 0) { usleep(200000); _exit(0); } if (p > 0) got++; }
  while (wait(NULL) > 0) {}
  printf("%d\\n", got);
  return 0;
}
`;

describe.skipIf(!withCgroups)('sandbox cells', () => {
  let sandbox: Sandbox;
  let tmp: string;
  const built: Record<string, CompileResult> = {};

  /** The cell directories of the sandbox's cgroups, and the processes in them. */
  const cells = (): { dirs: string[]; procs: number[] } => {
    const dirs = sandbox
      .describeBackend()
      .split(', ')
      .filter((d) => d.startsWith('/sys/fs/cgroup'))
      .flatMap((d) => fs.readdirSync(d).filter((n) => n.startsWith('cell-')).map((n) => path.join(d, n)));
    const procs = new Set<number>();
    for (const d of dirs) for (const p of fs.readFileSync(path.join(d, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean)) procs.add(Number(p));
    return { dirs, procs: [...procs] };
  };
  /** Waits until the cell the last run used is reset and idle again. */
  const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 150));
  const run = (name: string, args: string[] = [], limits: Limits = LIMITS) =>
    sandbox.run({ argv: ['/box/main', ...args], workDir: built[name]!.dir, stdout: { path: path.join(tmp, `${name}.out`) }, limits });

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-cells-'));
    fs.chmodSync(tmp, 0o755);
    sandbox = await Sandbox.create({ workRoot: path.join(tmp, 'work'), uidBase: 61700 });
    for (const [name, code] of Object.entries({ heavy: HEAVY, forks: FORKS })) {
      const src = path.join(tmp, `${name}-src`);
      fs.mkdirSync(src);
      fs.writeFileSync(path.join(src, 'main.c'), code);
      const r = await compile(sandbox, c!, src, path.join(tmp, `${name}-bin`));
      if (!r.ok) throw new Error(r.log);
      built[name] = r;
    }
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a reused cell carries nothing into the next run: no memory peak, no CPU time, no process', async () => {
    await settle();
    const before = cells();
    expect(before.dirs.length).toBeGreaterThan(0);
    const heavy = await run('heavy');
    expect(heavy.status).toBe('ok');
    expect(heavy.memoryBytes!).toBeGreaterThan(160 * MiB);
    expect(heavy.cpuMs).toBeGreaterThan(250);
    await settle();
    // the same cells, with nothing in them but their launchers
    const after = cells();
    expect(after.dirs).toEqual(before.dirs);
    expect(after.procs.sort()).toEqual(before.procs.sort());
    // 14 processes at once fit a limit of 16 (its pid 1 is bwrap's) only if none of the sleepers is left
    const forks = await run('forks', ['14'], { ...LIMITS, pids: 16 });
    expect(forks.status).toBe('ok');
    expect(fs.readFileSync(path.join(tmp, 'forks.out'), 'utf8')).toBe('14\n');
    expect(forks.memoryBytes!).toBeLessThan(32 * MiB);
    expect(forks.cpuMs).toBeLessThan(200);
    expect(cells().dirs).toEqual(before.dirs);
  });

  it('a limit on processes still holds in a reused cell', async () => {
    await settle();
    const r = await run('forks', ['30'], { ...LIMITS, pids: 8 });
    expect(r.status).toBe('ok');
    const got = Number(fs.readFileSync(path.join(tmp, 'forks.out'), 'utf8'));
    expect(got).toBeLessThan(8);
    expect(got).toBeGreaterThan(0);
  });

  it('a cell whose launcher died is replaced, and the next run does not notice', async () => {
    await settle();
    const { procs } = cells();
    expect(procs.length).toBeGreaterThan(0);
    for (const p of procs) process.kill(p, 'SIGKILL');
    await settle();
    const r = await run('forks', ['2']);
    expect(r.status).toBe('ok');
    expect(fs.readFileSync(path.join(tmp, 'forks.out'), 'utf8')).toBe('2\n');
    await settle();
    // the dead cells' cgroups are gone, the new one holds its launcher
    const now = cells();
    expect(now.procs.length).toBeGreaterThan(0);
    for (const p of now.procs) expect(procs).not.toContain(p);
  });
});
