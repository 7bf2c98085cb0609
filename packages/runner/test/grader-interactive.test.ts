import { describe as suite, expect, it } from 'vitest';
import type { Verdict } from '@judge/runner';
import { hasBwrap, judgeFixture } from './judging.js';

/**
 * The interactive grader: the submission and the package's interactor piped together in the real
 * sandbox, and a table of the ways the two can end (as DOMjudge tests its runpipe).
 */

const describe = suite.skipIf(!hasBwrap);
const { problemOf, judge } = judgeFixture();

describe('interactive problems', () => {
  /** The interactor knows a number (the .in file) and answers guesses with <, > or =. */
  const interactor = [
    'import sys',
    'secret = int(open(sys.argv[1]).read())',
    'for guesses in range(1, 21):',
    '    line = sys.stdin.readline()',
    '    if not line:',
    '        open(sys.argv[3] + "judgemessage.txt", "w").write("no guess")',
    '        sys.exit(43)',
    '    g = int(line)',
    '    if g == secret:',
    '        print("=", flush=True)',
    '        sys.exit(42)',
    '    print("<" if secret < g else ">", flush=True)',
    'open(sys.argv[3] + "judgemessage.txt", "w").write("too many guesses")',
    'sys.exit(43)',
    '',
  ].join('\n');
  const guesser = [
    'lo, hi = 1, 1000',
    'while True:',
    '    mid = (lo + hi) // 2',
    '    print(mid, flush=True)',
    '    r = input()',
    '    if r == "=": break',
    '    if r == "<": hi = mid - 1',
    '    else: lo = mid + 1',
    '',
  ].join('\n');

  it('pipes the submission and the interactor together; the interactor decides', async () => {
    const problem = await problemOf({
      'problem.yaml': 'problem_format_version: 2023-07\nname: Guess\ntype: interactive\nlimits:\n  time_limit: 2\n',
      'data/sample/1.in': '500\n',
      'data/sample/1.ans': '\n',
      'data/sample/1.interaction': '> 500\n< =\n',
      'data/secret/1.in': '1\n',
      'data/secret/1.ans': '\n',
      'data/secret/2.in': '777\n',
      'data/secret/2.ans': '\n',
      'output_validator/interactor.py': interactor,
    });
    expect(problem.interactive).toBe(true);
    const ok = await judge(problem, { files: { 'guess.py': guesser } });
    expect(ok.log).not.toContain('judge error');
    expect(ok.verdict).toBe('AC');
    const linear = await judge(problem, { files: { 'guess.py': 'for i in range(1, 1001):\n    print(i, flush=True)\n    if input() == "=": break\n' } });
    expect(linear.verdict).toBe('WA');
    expect(linear.details.tests.find((t) => t.verdict === 'WA')?.feedback).toBe('too many guesses');
    // the submission crashing first is its own verdict, not the interactor's
    const crash = await judge(problem, { files: { 'guess.py': 'import sys\nsys.exit(5)\n' } });
    expect(crash.verdict).toBe('RTE');
    // a submission that never answers runs into its time limit
    const idle = await judge(problem, { files: { 'guess.c': '#include <unistd.h>\nint main(void){for(;;)pause();}\n' }, config: { timeLimitSeconds: 0.5 } });
    expect(idle.verdict).toBe('TLE');
  });
});

describe('interactive problems: a submission that leaves early', () => {
  it('drains the interactor so it can finish: its verdict stands when the submission exited cleanly', async () => {
    const problem = await problemOf({
      'problem.yaml': 'name: Flood\nvalidation: custom interactive\n',
      'data/secret/1.in': '1\n',
      'data/secret/1.ans': '\n',
      // writes 1 MiB (more than a pipe holds) before it reads anything
      'output_validators/flood/flood.py': 'import sys\nsys.stdout.write("x" * (1 << 20))\nsys.stdout.flush()\nsys.exit(42 if sys.stdin.read() == "ok\\n" else 43)\n',
    });
    const started = Date.now();
    const quitter = await judge(problem, { files: { 'q.py': 'print("bye")\n' } });
    expect(quitter.verdict).toBe('WA');
    expect(Date.now() - started).toBeLessThan(15_000);
    const reader = await judge(problem, { files: { 'r.py': 'import sys\nsys.stdin.read(1 << 20)\nprint("ok")\n' } });
    expect(reader.verdict).toBe('AC');
  });
});

const py = (...lines: string[]) => `${lines.join('\n')}\n`;

/** Sends "ping", accepts the answer "pong". */
const PING_PONG = py('import sys', 'print("ping", flush=True)', 'sys.exit(42 if sys.stdin.readline().strip() == "pong" else 43)');
/** Reads one line and rejects it, whatever it is. */
const REJECTS = py('import sys', 'print("ping", flush=True)', 'sys.stdin.readline()', 'sys.exit(43)');
/** Reads one line and accepts it, whatever it is (even none). */
const ACCEPTS = py('import sys', 'sys.stdin.readline()', 'sys.exit(42)');
/** Waits for a line: accepts one, rejects end of input. */
const WAITS = py('import sys', 'sys.exit(42 if sys.stdin.readline() else 43)');
const PONG = py('input()', 'print("pong", flush=True)');

interface Scenario {
  name: string;
  interactor: string;
  submission: string;
  verdict: Verdict;
  /** CPU seconds for the submission (the wall limit is twice that plus 1 s). */
  timeLimitSeconds?: number;
  outputMiB?: number;
}

/**
 * Who ends first, and how. The verdicts are those of problemtools (verifyproblem's
 * validate_interactive) and DOMjudge: an interactor that crashes or exits with anything but 42/43
 * is a judge error; an interactor that rejects first decides, whatever the submission does next
 * (crash, time limit); otherwise the submission's own failure (TLE, RTE) comes before the
 * interactor's verdict; a submission that does not end after the last exchange runs into its limit.
 */
const SCENARIOS: Scenario[] = [
  { name: 'the exchange completes and the interactor accepts', interactor: PING_PONG, submission: PONG, verdict: 'AC' },
  {
    name: 'the interactor rejects and exits first; the submission then crashes',
    interactor: REJECTS,
    submission: py('import sys, time', 'input()', 'print("wrong", flush=True)', 'time.sleep(0.3)', 'sys.exit(3)'),
    verdict: 'WA',
  },
  {
    name: 'the interactor rejects and exits first; the submission then spins past its CPU limit',
    interactor: REJECTS,
    submission: py('input()', 'print("wrong", flush=True)', 'while True: pass'),
    verdict: 'WA',
    timeLimitSeconds: 0.5,
  },
  {
    name: 'the interactor accepts and exits first; the submission then crashes',
    interactor: PING_PONG,
    submission: py('import sys, time', 'input()', 'print("pong", flush=True)', 'time.sleep(0.3)', 'sys.exit(3)'),
    verdict: 'RTE',
  },
  {
    name: 'the interactor accepts; the submission then never exits',
    interactor: PING_PONG,
    submission: py('import time', 'input()', 'print("pong", flush=True)', 'time.sleep(100)'),
    verdict: 'TLE',
    timeLimitSeconds: 0.5,
  },
  { name: 'the submission crashes first; the interactor then rejects the end of input', interactor: WAITS, submission: py('import sys', 'sys.exit(3)'), verdict: 'RTE' },
  { name: 'the submission crashes first; the interactor accepts anyway', interactor: ACCEPTS, submission: py('print("pong", flush=True)', 'raise SystemExit(3)'), verdict: 'RTE' },
  { name: 'the submission exits cleanly first without a word; the interactor rejects', interactor: WAITS, submission: py('pass'), verdict: 'WA' },
  {
    name: 'the interactor crashes after a clean exchange',
    interactor: py('import sys', 'print("ping", flush=True)', 'sys.stdin.readline()', 'raise SystemExit(1)'),
    submission: PONG,
    verdict: 'JE',
  },
  { name: 'both wait to read (deadlock): the submission runs into its time limit', interactor: WAITS, submission: py('input()'), verdict: 'TLE', timeLimitSeconds: 0.5 },
  {
    name: 'the interactor floods the pipe before reading; the submission leaves without reading',
    interactor: py('import sys', 'sys.stdout.write("x" * (1 << 20))', 'sys.stdout.flush()', 'sys.exit(42 if sys.stdin.read() == "ok\\n" else 43)'),
    submission: py('print("bye")'),
    verdict: 'WA',
  },
  {
    name: 'the submission floods the pipe; the interactor rejects after one line',
    interactor: py('import sys', 'sys.stdin.readline()', 'sys.exit(43)'),
    submission: py('import sys', 'while True: sys.stdout.write("x" * 65535 + "\\n")'),
    verdict: 'WA',
  },
  {
    name: 'the submission floods the pipe past its output limit while the interactor reads on',
    interactor: py('import sys', 'for line in sys.stdin: pass', 'sys.exit(43)'),
    submission: py('import sys', 'while True: sys.stdout.write("x" * 65535 + "\\n")'),
    verdict: 'OLE',
    outputMiB: 1,
  },
  { name: 'the submission closes its input early and still answers', interactor: PING_PONG, submission: py('import os', 'os.close(0)', 'print("pong", flush=True)'), verdict: 'AC' },
  // as in problemtools: only the interactor holds its output, so closing it is the submission's end of input at once
  {
    name: 'the interactor closes its output but keeps running; the submission waits for the end of input',
    interactor: py('import os, sys', 'os.close(1)', 'sys.exit(42 if sys.stdin.readline().strip() == "done" else 43)'),
    submission: py('import sys', 'sys.stdin.read()', 'print("done", flush=True)'),
    verdict: 'AC',
    timeLimitSeconds: 0.5,
  },
  {
    name: 'the interactor stops reading and exits; the submission then writes into the closed pipe',
    interactor: PING_PONG,
    submission: py('import sys, time', 'input()', 'print("pong", flush=True)', 'time.sleep(0.3)', 'for _ in range(100): print("late", flush=True)'),
    verdict: 'AC',
  },
];

describe('interactive scenarios', () => {
  it.each(SCENARIOS)('$name: $verdict', async (s) => {
    const problem = await problemOf({
      'problem.yaml': 'problem_format_version: 2023-07\nname: Scenario\ntype: interactive\nlimits:\n  time_limit: 1\n',
      'data/secret/1.in': '1\n',
      'data/secret/1.ans': '\n',
      'output_validator/interactor.py': s.interactor,
    });
    const config = { ...(s.timeLimitSeconds ? { timeLimitSeconds: s.timeLimitSeconds } : {}), ...(s.outputMiB ? { outputMiB: s.outputMiB } : {}) };
    const started = Date.now();
    const r = await judge(problem, { files: { 'sub.py': s.submission }, config });
    expect(r.infrastructureFailure).toBeUndefined();
    expect({ verdict: r.verdict, log: r.log }).toMatchObject({ verdict: s.verdict });
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
