/**
 * A sandbox whose launcher dies (a program that ptraces the sandbox's pid 1, or the judge-cell
 * process killed outright, during a test or between tests) fails that test only: no error escapes
 * to the process (vitest fails a file on any unhandled error), and the next test runs in a new
 * sandbox. Real bwrap, cgroups and compiler.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Limits } from '@judge/runner';
import { MiB, SANDBOX_USABLE, useCompiledSession } from './compiled-session.js';

const LIMITS: Limits = { cpuMs: 1000, wallMs: 4000, memoryBytes: 256 * MiB, pids: 16, outputBytes: MiB };

/** What the program does is its first input word: ptrace1 (attach to the sandbox's pid 1), spin, echo N. */
const PROGRAM = `#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
  char what[32] = ""; int n = 0;
  if (scanf("%31s %d", what, &n) < 1) return 2;
  if (!strcmp(what, "ptrace1")) {
    ptrace(PTRACE_ATTACH, 1, 0, 0);
    int st; waitpid(1, &st, __WALL);
    sleep(2);
    return 0;
  }
  if (!strcmp(what, "spin")) for (;;) {}
  printf("echo %d\\n", n);
  return 0;
}
`;

/** The judge-cell processes of this process that run a sandbox (they have a child: bwrap). */
function busyLaunchers(): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    if (ppid === process.pid && comm === 'judge-cell') children.get(ppid)!.push(Number(name));
    else children.get(ppid)!.push(-Number(name));
  }
  return (children.get(process.pid) ?? []).filter((p) => p > 0 && (children.get(p)?.length ?? 0) > 0);
}

const until = async (what: () => boolean): Promise<void> => {
  while (!what()) await new Promise((r) => setTimeout(r, 20));
};

describe.skipIf(!SANDBOX_USABLE)('a sandbox whose launcher dies', () => {
  const s = useCompiledSession({ tmpPrefix: 'judge-lost-', program: PROGRAM, uidBase: 61800, limits: LIMITS });

  /** One test of the session: its input text, and what it printed. */
  const start = (input: string) => {
    const t = s.nextTest(input);
    return { result: s.session.start(t.io).result, out: t.out };
  };
  const test = async (input: string) => {
    const t = start(input);
    return { r: await t.result, out: t.out() };
  };

  it('a program that ptraces the sandbox\'s pid 1 gets a result, and the tests after it run', async () => {
    for (let i = 0; i < 3; i++) {
      const tracer = await test('ptrace1');
      expect(['ok', 're']).toContain(tracer.r.status);
      const echo = await test(`echo ${i}`);
      expect(echo).toMatchObject({ r: { status: 'ok' }, out: `echo ${i}\n` });
    }
  });

  it('the launcher killed between tests: the next test gets a new sandbox', async () => {
    expect(await test('echo 1')).toMatchObject({ r: { status: 'ok' } });
    const launchers = busyLaunchers();
    expect(launchers.length).toBe(1);
    process.kill(launchers[0]!, 'SIGKILL');
    await until(() => busyLaunchers().length === 0);
    await new Promise((r) => setTimeout(r, 100));
    expect(await test('echo 2')).toMatchObject({ r: { status: 'ok' }, out: 'echo 2\n' });
  });

  it('the launcher killed during a test fails that test with a sandbox error, and the next test runs', async () => {
    const spin = start('spin');
    await until(() => busyLaunchers().length === 1);
    await new Promise((r) => setTimeout(r, 200));
    process.kill(busyLaunchers()[0]!, 'SIGKILL');
    await expect(spin.result).rejects.toThrow(/sandbox launcher/);
    expect(await test('echo 3')).toMatchObject({ r: { status: 'ok' }, out: 'echo 3\n' });
  });
});
