// What judge-100.mjs and slot-throughput.mjs share: an a + b package of n tests, a timing wrapper
// around the sandbox that splits one judging into its compile and its tests, and the physical
// floor of the test phase (a plain spawn of the compiled solution per test plus the default
// validator's comparison, which judging runs in process: graders/validation.ts, defaultValidate).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { Sandbox, compareOutput, compile, extractZip, loadLanguages, loadProblem } from '../packages/runner/dist/index.js';
// yazl is a dependency of the runner package, not of the root
const yazl = createRequire(new URL('../packages/runner/package.json', import.meta.url))('yazl');

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
export const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

/** A trivial C++ solution; `tag` makes each source distinct (a comment), so nothing can be reused. */
export const sumSource = (tag = '') =>
  `${tag ? `// ${tag}\n` : ''}#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << "\\n"; }\n`;

async function zipOf(entries) {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks = [];
  for await (const c of zip.outputStream) chunks.push(c);
  return Buffer.concat(chunks);
}

/**
 * An ICPC package of `n` secret a + b tests, zipped, extracted into `work` and loaded as
 * judge-runner loads one. Returns the problem and the tests' input and answer paths.
 */
export async function sumProblem(work, n) {
  const files = { 'problem.yaml': `name: Sum of ${n}\nlimits:\n  memory: 256\n`, '.timelimit': '1\n' };
  for (let i = 0; i < n; i++) {
    const a = i * 7919;
    const b = i * 104729;
    files[`data/secret/${String(i).padStart(3, '0')}.in`] = `${a} ${b}\n`;
    files[`data/secret/${String(i).padStart(3, '0')}.ans`] = `${a + b}\n`;
  }
  const dir = path.join(work, 'pkg');
  await extractZip(await zipOf(files), dir, { maxExtractedBytes: 1 << 30, maxEntries: 10_000 });
  const problem = await loadProblem(dir);
  const tests = [];
  for (let i = 0; i < n; i++) {
    const base = path.join(dir, 'data', 'secret', String(i).padStart(3, '0'));
    tests.push({ input: `${base}.in`, answer: `${base}.ans` });
  }
  return { problem, tests };
}

/**
 * The sandbox as judgeSubmission sees it, with one addition: the moment the compile run (the
 * first writable run: test runs mount their box read-only) ends is kept,
 * so one judging splits into compile (from its start to then) and tests (the rest); the time the
 * test phase spends running the program is summed too, whether through `sandbox.run` or a test of
 * a session (`openSession(...).run`, how judging runs tests); the rest is validation and bookkeeping.
 */
export function timedSandbox(sandbox) {
  const marks = { compileEnd: 0, testRunsMs: 0 };
  const proxy = new Proxy(sandbox, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === 'run') {
        return async (spec) => {
          const t0 = performance.now();
          const r = await target.run(spec);
          if (marks.compileEnd) marks.testRunsMs += performance.now() - t0;
          else if (spec.writable) marks.compileEnd = performance.now();
          return r;
        };
      }
      if (key === 'openSession') {
        return (spec) => {
          const session = target.openSession(spec);
          return {
            run: async (t) => {
              const t0 = performance.now();
              const r = await session.run(t);
              if (marks.compileEnd) marks.testRunsMs += performance.now() - t0;
              return r;
            },
            close: () => session.close(),
          };
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { sandbox: proxy, marks };
}

/** One judging through judgeSubmission, split into compile and tests; throws unless AC. */
export async function judgeTimed(judgeSubmission, timed, input) {
  timed.marks.compileEnd = 0;
  timed.marks.testRunsMs = 0;
  const t0 = performance.now();
  const result = await judgeSubmission({ ...input, sandbox: timed.sandbox });
  const totalMs = performance.now() - t0;
  if (result.verdict !== 'AC') throw new Error(`expected AC, got ${result.verdict}: ${result.log}`);
  if (!timed.marks.compileEnd) throw new Error('no compile run seen');
  const compileMs = timed.marks.compileEnd - t0;
  return { result, totalMs, compileMs, testsMs: totalMs - compileMs, runsMs: timed.marks.testRunsMs };
}

const VALIDATOR = { caseSensitive: false, spaceChangeSensitive: false };

/** One test at the floor: the binary spawned plainly (stdin from the input file, stdout to a file), then the in-process comparison. */
async function floorTest(binary, test, output) {
  const inFd = fs.openSync(test.input, 'r');
  const outFd = fs.openSync(output, 'w');
  const child = spawn(binary, [], { stdio: [inFd, outFd, 'ignore'], env: { PATH: '/usr/bin:/bin' } });
  fs.closeSync(inFd);
  fs.closeSync(outFd);
  const code = await new Promise((resolve, reject) => child.once('exit', resolve).once('error', reject));
  if (code !== 0) throw new Error(`plain spawn exited with ${code}`);
  const v = await compareOutput(test.answer, output, VALIDATOR);
  if (!v.accepted) throw new Error(`floor: wrong answer ${v.message}`);
}

/** The test phase at its floor: every test, one after another, as `floorTest`. Returns its ms. */
export async function floorPhase(binary, tests, scratch) {
  const output = path.join(scratch, 'floor-out.txt');
  const t0 = performance.now();
  for (const test of tests) await floorTest(binary, test, output);
  return performance.now() - t0;
}

export const FLOOR_DESCRIPTION =
  'floor = per test, a plain child_process.spawn of the same compiled binary (no sandbox, no limits; stdin from the test file, ' +
  'stdout to a file) plus the default validator exactly as judging runs it: in process (compareOutput, no spawn)';

/**
 * The bench's set-up and tear-down: a sandbox, the language table, a work directory holding the
 * `tests`-test sum problem, and the floor's binary (the same source compiled once by the same
 * language entry). `fn` gets { timed, languages, problem, tests, work, binary }.
 */
export async function withSumBench(prefix, testCount, fn) {
  const sandbox = await Sandbox.create();
  const languages = loadLanguages();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(work, 0o711);
  let built;
  try {
    const { problem, tests } = await sumProblem(work, testCount);
    fs.mkdirSync(path.join(work, 'src'));
    fs.writeFileSync(path.join(work, 'src', 'sum.cpp'), sumSource());
    built = await compile(sandbox, languages.get('cpp'), path.join(work, 'src'), path.join(work, 'bin'));
    if (!built.ok) throw new Error(built.log);
    return await fn({ timed: timedSandbox(sandbox), languages, problem, tests, work, binary: path.join(built.dir, 'main') });
  } finally {
    await built?.box.dispose();
    await sandbox.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}
