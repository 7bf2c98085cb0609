import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type SubmissionSummary } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ManualClock, TestJudge } from '../packages/server/test/harness.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { packagedProblem } from '../packages/server/test/support/packaged-problem.js';
import { until } from '../packages/server/test/support/wait.js';
import { zipOf } from '../packages/server/test/zips.js';
import { settled } from './one-problem-contest.js';
import { uidBaseOfRun } from './runner-process.js';

/**
 * The judge with its runner, end to end: a real server, `bin/judge-runner` as a child process
 * exactly as an administrator starts it, and the real sandbox (bubblewrap and cgroups, as root).
 * Packages are made here; submissions come in through the participant API and their verdicts are
 * read back over REST. Hostile programs must be contained, get the right verdict, leave the host
 * unharmed and nothing running. Build first (`pnpm build`): the launcher runs the built runner.
 */

const RUNNER = fileURLToPath(new URL('../bin/judge-runner', import.meta.url));
/**
 * Uids the runners of this file give their sandbox slots: a range of their own, so that sandboxes
 * of other test files running at the same time are not taken for leftovers of these.
 */
const UID_BASE = uidBaseOfRun(60100);
const SLOT_UIDS = [UID_BASE, UID_BASE + 1, UID_BASE + 2, UID_BASE + 3];

/** Processes running as a sandbox slot's uid: after every run there must be none. */
function slotProcesses(): string[] {
  const out = execFileSync('ps', ['-eo', 'uid=,pid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && SLOT_UIDS.includes(Number(l.split(/\s+/)[0])));
}

// ---------------------------------------------------------------- packages

const SUM_TESTS = {
  'data/sample/1.in': '1 2\n',
  'data/sample/1.ans': '3\n',
  'data/secret/1.in': '5 5\n',
  'data/secret/1.ans': '10\n',
  'data/secret/2.in': '1000000000 1000000000\n',
  'data/secret/2.ans': '2000000000\n',
};

const PACKAGES: Record<string, Record<string, string>> = {
  // time limit 1 s, memory 256 MiB, output 1 MiB
  sum: { 'problem.yaml': 'name: Sum\nlimits:\n  memory: 256\n  output: 1\n', '.timelimit': '1\n', ...SUM_TESTS },
  third: {
    'problem.yaml': 'name: Third\nvalidator_flags: float_tolerance 1e-6\n',
    'data/secret/1.in': '1\n',
    'data/secret/1.ans': '0.333333333333\n',
  },
  above: {
    'problem.yaml': 'name: Above\nvalidation: custom\n',
    'data/secret/1.in': '5\n',
    'data/secret/1.ans': 'any\n',
    'data/secret/2.in': '50\n',
    'data/secret/2.ans': 'any\n',
    'output_validators/above/validate.py': [
      'import sys',
      'n = int(open(sys.argv[1]).read())',
      'x = int(sys.stdin.read().split()[0])',
      'sys.exit(42 if x > n else 43)',
      '',
    ].join('\n'),
  },
  guess: {
    'problem.yaml': 'problem_format_version: 2023-07\nname: Guess\ntype: interactive\nlimits:\n  time_limit: 2\n',
    'data/secret/1.in': '1\n',
    'data/secret/1.ans': '\n',
    'data/secret/2.in': '777\n',
    'data/secret/2.ans': '\n',
    'output_validator/interactor.py': [
      'import sys',
      'secret = int(open(sys.argv[1]).read())',
      'for _ in range(20):',
      '    line = sys.stdin.readline()',
      '    if not line: sys.exit(43)',
      '    g = int(line)',
      '    if g == secret:',
      '        print("=", flush=True)',
      '        sys.exit(42)',
      '    print("<" if secret < g else ">", flush=True)',
      'sys.exit(43)',
      '',
    ].join('\n'),
  },
  // a scoring problem: group 1 (small numbers) is worth 30, group 2 (big ones) 70
  scored: {
    'problem.yaml': 'problem_format_version: 2023-07\nname: Scored\ntype: scoring\n',
    'data/secret/small/test_group.yaml': 'max_score: 30\n',
    'data/secret/small/1.in': '1 2\n',
    'data/secret/small/1.ans': '3\n',
    'data/secret/big/test_group.yaml': 'max_score: 70\n',
    'data/secret/big/1.in': '4000000000 4000000000\n',
    'data/secret/big/1.ans': '8000000000\n',
  },
  // a validator that crashes: a judge error, which is the package's fault, not the submission's
  crashy: {
    'problem.yaml': 'name: Crashy\nvalidation: custom\n',
    'data/secret/1.in': '1\n',
    'data/secret/1.ans': '1\n',
    'output_validators/v/v.py': 'import sys\nprint("validator broke", file=sys.stderr)\nsys.exit(1)\n',
  },
  // five tests of a solution that sleeps 0.3 s in each: a job long enough to kill a runner in the
  // middle of one, yet one the second runner judges again from the start in under two seconds
  // (thirty tests made that alone take ten)
  slow: {
    'problem.yaml': 'name: Slow\n',
    '.timelimit': '2\n',
    ...Object.fromEntries(Array.from({ length: 5 }, (_, i) => [[`data/secret/${i}.in`, `${i} 1\n`], [`data/secret/${i}.ans`, `${i + 1}\n`]]).flat()),
  },
};

// ---------------------------------------------------------------- solutions

const PY_SUM = 'print(sum(map(int, input().split())))\n';
const CPP_SUM = '#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << "\\n"; }\n';
/** A C solution of Sum that first tries something hostile, and answers wrongly if it worked. */
const hostileSum = (attempt: string) =>
  [
    '#include <stdio.h>',
    '#include <stdlib.h>',
    '#include <string.h>',
    '#include <unistd.h>',
    '#include <fcntl.h>',
    '#include <signal.h>',
    '#include <sys/socket.h>',
    '#include <arpa/inet.h>',
    'static int escaped(void) {',
    attempt,
    '}',
    'int main(void) { long long a, b; if (scanf("%lld %lld", &a, &b) != 2) return 1; printf("%lld\\n", a + b + (escaped() ? 1 : 0)); return 0; }',
    '',
  ].join('\n');

describe('judge-runner: verdicts through the whole stack, in the real sandbox', () => {
  const clock = new ManualClock(new Date());
  let j: TestJudge;
  let admin: JudgeClient;
  let participant: JudgeClient;
  let act: Activity;
  let work: string;
  const runners: ChildProcess[] = [];
  const logs: string[] = [];
  let listener: Server;
  let connections = 0;
  let listenPort = 0;

  /** Registers a runner with its own config dir (child process), approves it, and starts it. */
  async function startRunner(name: string): Promise<{ child: ChildProcess; dir: string; runnerId: string }> {
    const dir = join(work, name);
    const reg = await new Promise<string>((resolve, reject) =>
      execFile(RUNNER, ['register', '--server', j.url, '--name', name, '--config-dir', dir, '--json'], { encoding: 'utf8' }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    const { runnerId, state } = JSON.parse(reg) as { runnerId: string; state: string };
    expect(state).toBe('pendingApproval');
    await admin.call(ops.approveRunner, { params: { id: runnerId } });
    const child = spawn(RUNNER, ['start', '--config-dir', dir, '--lease-seconds', '15', '--uid-base', String(UID_BASE)], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d: Buffer) => logs.push(`[${name}] ${d.toString()}`));
    child.stderr!.on('data', (d: Buffer) => logs.push(`[${name}!] ${d.toString()}`));
    runners.push(child);
    await until(`${name} judging`, () => (logs.some((l) => l.startsWith(`[${name}] `) && l.includes('judging for')) ? true : undefined), 30_000, 100);
    return { child, dir, runnerId };
  }

  async function submit(problem: string, fileName: string, code: string, props?: Record<string, unknown>): Promise<SubmissionSummary> {
    const form = codeForm(code, fileName, props ? { props: JSON.stringify(props) } : {});
    return participant.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: problem }, form });
  }

  /** The submission once it is judged (or given up). */
  const verdictOf = (s: SubmissionSummary, ms = 120_000) => settled(participant, act.slug, s.id, { ms, stepMs: 100, what: `a verdict for ${s.problemSlug}` });

  async function judged(problem: string, fileName: string, code: string, props?: Record<string, unknown>) {
    return verdictOf(await submit(problem, fileName, code, props));
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'judge-runner-e2e-'));
    listener = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', () => r()));
    listenPort = (listener.address() as { port: number }).port;
    j = await TestJudge.start({ clock });
    j.app.reaper.stop();
    admin = await j.admin();
    act = await admin.call(ops.createActivity, { body: { slug: 'e2e', name: 'E2E', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
    const series = await admin.call(ops.createSeries, { params: { idOrSlug: 'e2e' }, body: { slug: 'main', name: 'Main' } });
    await admin.call(ops.updateActivity, { params: { idOrSlug: 'e2e' }, body: { slug: 'e2e', maxSubmissionsPerProblem: null, attachmentVisibility: [{ name: 'log', visibility: 'participant' }] } });
    for (const [slug, files] of Object.entries(PACKAGES)) {
      const type = 'standard-io@1';
      const { problem: p } = await packagedProblem(admin, { slug: `e2e-${slug}`, name: slug, type }, await zipOf(files), `${slug}.zip`);
      await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: p.id, slug, ...(slug === 'scored' ? { maxPoints: 100 } : {}) } });
    }
    const u = await j.user('contestant');
    participant = await j.signIn(u);
    await participant.call(ops.enrol, { params: { idOrSlug: 'e2e' }, body: {} });
    await startRunner('runner-a');
  }, 120_000);

  afterAll(async () => {
    for (const r of runners) if (r.exitCode === null) r.kill('SIGKILL');
    listener?.close();
    await j?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  describe('verdicts', () => {
    it('C++ and Python solutions are accepted, with the per-test details and the log attached', async () => {
      const cpp = await judged('sum', 'sum.cpp', CPP_SUM);
      expect(cpp, logs.join('')).toMatchObject({ verdict: 'AC', score: 1, maxScore: 1, state: 'completed' });
      const py = await judged('sum', 'sum.py', PY_SUM);
      expect(py).toMatchObject({ verdict: 'AC', score: 1 });
      const m = await admin.call(ops.getSubmission, { params: { id: py.id } });
      const names = m.attemptList[0]!.files.map((f) => f.name);
      expect(names).toEqual(['details', 'log']);
      const details = JSON.parse(Buffer.from(await admin.call(ops.downloadFile, { params: { id: m.attemptList[0]!.files[0]!.fileId } })).toString()) as { tests: { test: string; verdict: string; cpuMs: number }[] };
      expect(details.tests.map((t) => [t.test, t.verdict])).toEqual([
        ['sample/1', 'AC'],
        ['secret/1', 'AC'],
        ['secret/2', 'AC'],
      ]);
      // the participant sees the log (the activity shows it) but not the details
      expect(py.attemptList[0]!.files.map((f) => f.name)).toEqual(['log']);
    });

    it('a wrong answer is WA; an infinite loop TLE; 1 GiB under 256 MiB MLE; a crash RTE; a syntax error CE with the compiler output; a flood of output OLE', async () => {
      const cases = await Promise.all([
        submit('sum', 'wrong.py', 'print(42)\n'),
        submit('sum', 'loop.c', '#include <stdio.h>\nint main(void){volatile unsigned long x=0;for(;;)x++;}\n'),
        // volatile: the compiler may not drop an allocation nobody reads
        submit('sum', 'big.c', '#include <stdlib.h>\nint main(void){size_t n=1UL<<30;volatile char*p=malloc(n);if(!p)return 3;for(size_t i=0;i<n;i+=4096)p[i]=1;return p[n-4096]==7;}\n'),
        submit('sum', 'crash.c', '#include <stdio.h>\nint main(void){int *p=0;printf("%d\\n",*p);return 0;}\n'),
        submit('sum', 'broken.cpp', 'int main() { this is not C++ }\n'),
        submit('sum', 'flood.py', 'import sys\nwhile True: sys.stdout.write("x" * 65536)\n'),
      ]);
      const [wa, tle, mle, rte, ce, ole] = await Promise.all(cases.map((s) => verdictOf(s)));
      expect(wa!.verdict).toBe('WA');
      expect(tle!.verdict).toBe('TLE');
      expect(mle!.verdict).toBe('MLE');
      expect(rte!.verdict).toBe('RTE');
      expect(ce!.verdict).toBe('CE');
      expect(ole!.verdict).toBe('OLE');
      const log = ce!.attemptList[0]!.files.find((f) => f.name === 'log')!;
      expect(Buffer.from(await participant.call(ops.downloadFile, { params: { id: log.fileId } })).toString()).toMatch(/error/);
      // the compiler's output is an attachment of its own, which its author reads
      const compile = ce!.attemptList[0]!.files.find((f) => f.name === 'compile')!;
      expect(Buffer.from(await participant.call(ops.downloadFile, { params: { id: compile.fileId } })).toString()).toMatch(/error[\s\S]*compilation failed$/);
      expect(slotProcesses()).toEqual([]);
    });

    it('a float answer within the tolerance is accepted; a custom validator and an interactive problem work; a scoring problem gives partial points', async () => {
      const [third, above, aboveWrong, guess, scored] = await Promise.all([
        submit('third', 'third.py', 'print(1/3)\n'),
        submit('above', 'above.py', 'print(int(input()) * 2 + 1)\n'),
        submit('above', 'above.py', 'print(7)\n'),
        submit('guess', 'guess.py', 'lo, hi = 1, 1000\nwhile True:\n    mid = (lo + hi) // 2\n    print(mid, flush=True)\n    r = input()\n    if r == "=": break\n    if r == "<": hi = mid - 1\n    else: lo = mid + 1\n'),
        // overflows on the big numbers of group 2: 30 of 100
        submit('scored', 'scored.c', '#include <stdio.h>\nint main(void){int a,b;scanf("%d %d",&a,&b);printf("%d\\n",a+b);}\n'),
      ]);
      const verdicts = await Promise.all([third, above, aboveWrong, guess].map(async (s) => {
        const d = await verdictOf(s);
        return `${s.problemSlug}: ${d.verdict}`;
      }));
      expect(verdicts, logs.join('')).toEqual(['third: AC', 'above: AC', 'above: WA', 'guess: AC']);
      expect(await verdictOf(scored)).toMatchObject({ score: 30, maxScore: 100 });
    });

    it('a crashing validator is an infrastructure failure: tried again, then the attempt fails with the reason', async () => {
      const s = await judged('crashy', 'echo.py', 'print(input())\n');
      expect(s.state).toBe('failed');
      expect(s.verdict).toBeUndefined();
      const m = await admin.call(ops.getSubmission, { params: { id: s.id } });
      expect(m.attemptList[0]!.failureReason).toMatch(/after 5 deliveries.*judge error.*exited with code 1/s);
      expect(m.attemptList[0]!.files.map((f) => f.name)).toEqual(['details', 'log']);
    });

    it('the ranking shows what was judged', async () => {
      const r = await participant.call(ops.getRanking, { params: { idOrSlug: act.slug } });
      const cell = r.rows[0]!.cells.find((c) => c.problemId === r.problems.find((p) => p.slug === 'sum')!.id)!;
      expect(cell).toMatchObject({ solved: true, attempts: 1, pending: 0 });
    });
  });

  describe('hostile programs are contained, judged, and leave nothing behind', () => {
    it('opening a network connection fails (nothing reaches a listener on the host)', async () => {
      const attempt = [
        '  int s = socket(AF_INET, SOCK_STREAM, 0); if (s < 0) return 0;',
        '  struct sockaddr_in a; memset(&a, 0, sizeof a); a.sin_family = AF_INET; a.sin_port = htons(' + listenPort + ');',
        '  inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);',
        '  if (connect(s, (struct sockaddr*)&a, sizeof a) == 0) return 1;',
        '  inet_pton(AF_INET, "1.1.1.1", &a.sin_addr); a.sin_port = htons(53);',
        '  return connect(s, (struct sockaddr*)&a, sizeof a) == 0;',
      ].join('\n');
      expect((await judged('sum', 'net.c', hostileSum(attempt))).verdict).toBe('AC');
      expect(connections).toBe(0);
    });

    it("reading /etc/shadow or the runner's own key fails", async () => {
      const key = join(work, 'runner-a', 'key.json');
      expect(existsSync(key)).toBe(true);
      const attempt = `  return open("/etc/shadow", O_RDONLY) >= 0 || open("${key}", O_RDONLY) >= 0 || open("/root/.bashrc", O_RDONLY) >= 0;`;
      expect((await judged('sum', 'peek.c', hostileSum(attempt))).verdict).toBe('AC');
    });

    it('writing outside its directory fails, and the host is unchanged', async () => {
      const marker = join(work, 'written-by-a-submission');
      const attempt = [`  const char *paths[] = { "${marker}", "/etc/pwned", "/usr/pwned", "/pwned", "/box/../pwned" };`, '  for (int i = 0; i < 5; i++) if (open(paths[i], O_WRONLY | O_CREAT, 0644) >= 0) return 1;', '  return 0;'].join('\n');
      expect((await judged('sum', 'write.c', hostileSum(attempt))).verdict).toBe('AC');
      expect(existsSync(marker)).toBe(false);
      expect(existsSync('/etc/pwned')).toBe(false);
    });

    it('a child left running after the program exits is killed', async () => {
      const attempt = ['  if (fork() == 0) { setsid(); if (fork() == 0) { for (;;) sleep(1); } _exit(0); }', '  return 0;'].join('\n');
      expect((await judged('sum', 'orphan.c', hostileSum(attempt))).verdict).toBe('AC');
      expect(slotProcesses()).toEqual([]);
    });

    it('sleeping forever is a time limit exceeded, stopped by the wall clock', async () => {
      const s = await judged('sum', 'sleepy.c', '#include <unistd.h>\nint main(void){for(;;)pause();}\n');
      expect(s.verdict).toBe('TLE');
      expect(slotProcesses()).toEqual([]);
    });

    it('a fork bomb is contained: the host can still start processes, and none is left', async () => {
      const s = await judged('sum', 'bomb.c', '#include <unistd.h>\nint main(void){for(;;)fork();}\n');
      expect(['TLE', 'RTE']).toContain(s.verdict);
      expect(execFileSync('true').toString()).toBe('');
      expect(slotProcesses()).toEqual([]);
    });
  });

  describe('a runner that dies mid-job', () => {
    it('leaves no sandboxed process behind, and its job goes to another runner once the lease lapses', async () => {
      const [a] = runners;
      const s = await submit('slow', 'slow.py', 'import time\ntime.sleep(0.3)\nprint(sum(map(int, input().split())))\n');
      // the job is being judged by runner A
      await until('runner A to hold the job', async () => ((await admin.call(ops.getSubmission, { params: { id: s.id } })).state === 'running' ? true : undefined), 60_000, 100);
      await until('a sandboxed test to run', () => (slotProcesses().length ? true : undefined), 20_000, 100);
      a!.kill('SIGKILL');
      await new Promise((r) => a!.once('exit', r));
      await until('the sandbox to die with the runner', () => (slotProcesses().length === 0 ? true : undefined), 5_000, 100);
      expect((await admin.call(ops.getSubmission, { params: { id: s.id } })).state).toBe('running');
      // a second runner takes the job once the lease has lapsed
      const b = await startRunner('runner-b');
      clock.advance(60);
      await j.app.reaper.tick(clock.now());
      const done = await verdictOf(s, 120_000);
      expect(done.verdict).toBe('AC');
      const m = await admin.call(ops.getSubmission, { params: { id: s.id } });
      expect(m.attemptList[0]!.runnerName).toBe('runner-b');
      // a polite stop gives nothing back because nothing is held, and exits cleanly
      b.child.kill('SIGTERM');
      const code = await new Promise<number | null>((r) => b.child.once('exit', (c) => r(c)));
      expect(code).toBe(0);
      expect(slotProcesses()).toEqual([]);
    }, 180_000);
  });
});
