/**
 * Sessions: the tests of one submission run in one sandbox, each started by the helper inside.
 * Each test must still start as a fresh sandbox would (no memory peak, CPU time, process or /tmp
 * file of the test before), limits must hold per test, a program that kills the helper must not
 * take the next test down, and streamed pipes must close when the program closes them. Real
 * bwrap, cgroups and compiler.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Limits } from '@judge/runner';
import { MiB, SANDBOX_USABLE, useCompiledSession } from './compiled-session.js';

const LIMITS: Limits = { cpuMs: 1000, wallMs: 4000, memoryBytes: 256 * MiB, pids: 16, outputBytes: MiB };
const UID_BASE = 61750;

/** What the program does is its first input word: heavy, tmp, forks N, spin, killall, echo. */
const PROGRAM = `#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
int main(void) {
  char what[32] = ""; int n = 0;
  if (scanf("%31s %d", what, &n) < 1) return 2;
  if (!strcmp(what, "heavy")) {
    char *p = malloc(160u << 20); memset(p, 1, 160u << 20);
    for (int i = 0; i < 4; i++) if (fork() == 0) { setsid(); execl("/usr/bin/sleep", "sleep", "100", (char *)0); _exit(1); }
    FILE *f = fopen("/tmp/left-behind", "w"); fputs("x", f); fclose(f);
    volatile unsigned long x = 0; for (unsigned long i = 0; i < 300000000UL; i++) x += i;
    printf("heavy %d\\n", p[4242]); return 0;
  }
  if (!strcmp(what, "tmp")) { printf("%s\\n", access("/tmp/left-behind", F_OK) == 0 ? "seen" : "clean"); return 0; }
  if (!strcmp(what, "forks")) {
    int got = 0;
    for (int i = 0; i < n; i++) { pid_t p = fork(); if (p == 0) { usleep(200000); _exit(0); } if (p > 0) got++; }
    while (wait(NULL) > 0) {}
    printf("%d\\n", got); return 0;
  }
  if (!strcmp(what, "spin")) for (;;) {}
  if (!strcmp(what, "killall")) { kill(-1, SIGKILL); sleep(1); return 0; }
  printf("echo %d\\n", n);
  return 0;
}
`;

/** The host pid of a process of this file's slot uid whose command line ends so. */
function pidOf(ending: string): number | undefined {
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const uid = Number(/^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${d}/status`, 'utf8'))![1]);
      if (uid === UID_BASE && fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').endsWith(ending)) return Number(d);
    } catch {
      /* gone */
    }
  }
  return undefined;
}

describe.skipIf(!SANDBOX_USABLE)('sandbox sessions', () => {
  const s = useCompiledSession({ tmpPrefix: 'judge-sessions-', program: PROGRAM, uidBase: UID_BASE, limits: LIMITS });

  /** One test of the session: its input text, and what it printed. */
  const test = async (input: string, limits?: Limits) => {
    const t = s.nextTest(input);
    const r = await s.session.run({ ...t.io, ...(limits ? { limits } : {}) });
    return { r, out: t.out() };
  };

  it('each test starts clean: no memory peak, CPU time, process or /tmp file of the test before', async () => {
    const heavy = await test('heavy');
    expect(heavy.out).toBe('heavy 1\n');
    expect(heavy.r.memoryBytes!).toBeGreaterThan(160 * MiB);
    expect(heavy.r.cpuMs).toBeGreaterThan(50);
    const tmpCheck = await test('tmp');
    expect(tmpCheck.out).toBe('clean\n');
    expect(tmpCheck.r.memoryBytes!).toBeLessThan(32 * MiB);
    expect(tmpCheck.r.cpuMs).toBeLessThan(50);
    // 14 at once fit a limit of 16 only if none of the four sleepers of the heavy test is left
    const forks = await test('forks 14', { ...LIMITS, pids: 16 });
    expect(forks.out).toBe('14\n');
  });

  it('limits hold per test, and the test after a stopped one runs normally', async () => {
    const spin = await test('spin', { ...LIMITS, cpuMs: 300 });
    expect(spin.r.status).toBe('tle');
    const few = await test('forks 30', { ...LIMITS, pids: 8 });
    expect(few.r.status).toBe('ok');
    expect(Number(few.out)).toBeLessThan(8);
    const echo = await test('echo 5');
    expect(echo).toMatchObject({ r: { status: 'ok' }, out: 'echo 5\n' });
  });

  it('a program cannot kill every process it can see (the helper would be one): the session goes on', async () => {
    const killer = await test('killall');
    expect(killer.r.status).toBe('ok');
    const echo = await test('echo 7');
    expect(echo).toMatchObject({ r: { status: 'ok' }, out: 'echo 7\n' });
  });

  it('a helper that dies all the same ends its test as a runtime error, and the next test gets a new sandbox', async () => {
    const spin = test('spin');
    // once the test's program runs, its helper (judge-cell --box) is killed from outside
    for (let i = 0; i < 300 && pidOf('/box/main\0') === undefined; i++) await new Promise((r) => setTimeout(r, 10));
    process.kill(pidOf('--box\0')!, 'SIGKILL');
    expect((await spin).r.status).toBe('re');
    const echo = await test('echo 8');
    expect(echo).toMatchObject({ r: { status: 'ok' }, out: 'echo 8\n' });
  });

  it('a streamed output the program closes is closed for the reader at once, not when the program ends', async () => {
    const box = await s.sandbox.prepareBox();
    try {
      const t0 = performance.now();
      const p = s.sandbox.start({ argv: ['/bin/sh', '-c', 'echo hi; exec 1>&-; sleep 1'], workDir: box.path, stdin: 'pipe', stdout: 'pipe', limits: LIMITS });
      p.stdin!.end();
      let text = '';
      p.stdout!.on('data', (d: Buffer) => (text += d.toString()));
      const eofAt = await new Promise<number>((resolve) => p.stdout!.once('end', () => resolve(performance.now() - t0)));
      const r = await p.result;
      const exitAt = performance.now() - t0;
      expect(text).toBe('hi\n');
      expect(r.status).toBe('ok');
      expect(eofAt).toBeLessThan(exitAt - 500);
    } finally {
      await box.dispose();
    }
  });
});
