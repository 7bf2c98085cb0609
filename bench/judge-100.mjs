// A 100-test problem judged with a trivial C++ solution, as judge-runner judges a submission:
// package extracted and loaded, the source compiled in the sandbox, every test run in the sandbox
// and checked by the default validator. Prints the total judging time (compile included), the
// compile time, the per-test wall time (median, p95) and the time per test beyond the program
// itself. BENCH_ROUNDS (3) rounds; the figures of each round and their median.
//
//   cd /work/main && npx tsc -b packages/runner && node bench/judge-100.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
// yazl is a dependency of the runner package, not of the root
const yazl = createRequire(new URL('../packages/runner/package.json', import.meta.url))('yazl');
import { Sandbox, compile, extractZip, judgeSubmission, loadLanguages, loadProblem } from '../packages/runner/dist/index.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TESTS = 100;

async function zipOf(entries) {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(entries)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks = [];
  for await (const c of zip.outputStream) chunks.push(c);
  return Buffer.concat(chunks);
}

const files = { 'problem.yaml': 'name: Hundred\nlimits:\n  memory: 256\n', '.timelimit': '1\n' };
for (let i = 0; i < TESTS; i++) {
  const a = i * 7919;
  const b = i * 104729;
  files[`data/secret/${String(i).padStart(3, '0')}.in`] = `${a} ${b}\n`;
  files[`data/secret/${String(i).padStart(3, '0')}.ans`] = `${a + b}\n`;
}
const source = '#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << "\\n"; }\n';

const sandbox = await Sandbox.create();
const languages = loadLanguages();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-judge-'));
fs.chmodSync(work, 0o711);
const dir = path.join(work, 'pkg');
await extractZip(await zipOf(files), dir, { maxExtractedBytes: 1 << 30, maxEntries: 10_000 });
const problem = await loadProblem(dir);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const rounds = [];
try {
  for (let r = 0; r < ROUNDS; r++) {
    // the compile on its own, to split the total: judgeSubmission compiles the same source again
    const src = path.join(work, `src-${r}`);
    fs.mkdirSync(src);
    fs.writeFileSync(path.join(src, 'sum.cpp'), source);
    const c0 = performance.now();
    const built = await compile(sandbox, languages.get('cpp'), src, path.join(work, `bin-${r}`));
    const compileMs = performance.now() - c0;
    if (!built.ok) throw new Error(built.log);
    const t0 = performance.now();
    const result = await judgeSubmission({ sandbox, languages, problem, files: [{ name: 'sum.cpp', bytes: Buffer.from(source) }], buildDir: path.join(work, `build-${r}`) });
    const total = performance.now() - t0;
    if (result.verdict !== 'AC') throw new Error(`expected AC, got ${result.verdict}: ${result.log}`);
    const tests = result.details.tests;
    const walls = tests.map((t) => t.wallMs ?? 0);
    const cpus = tests.map((t) => t.cpuMs ?? 0);
    const testsMs = total - compileMs;
    rounds.push({ total, compileMs, testsMs, perTest: testsMs / tests.length, wallMedian: median(walls), wallP95: p95(walls), cpuMedian: median(cpus) });
    console.log(
      `round ${r + 1}: total ${(total / 1000).toFixed(2)} s (compile ${(compileMs / 1000).toFixed(2)} s, ${tests.length} tests ${(testsMs / 1000).toFixed(2)} s = ${(testsMs / tests.length).toFixed(1)} ms a test; ` +
        `test wall median ${median(walls)} ms, p95 ${p95(walls)} ms; CPU charged median ${median(cpus)} ms)`,
    );
  }
  const m = (k) => median(rounds.map((x) => x[k]));
  console.log(
    `\n100-test problem, trivial C++ solution: total judging time ${(m('total') / 1000).toFixed(2)} s (compile ${(m('compileMs') / 1000).toFixed(2)} s, ` +
      `tests ${(m('testsMs') / 1000).toFixed(2)} s, ${m('perTest').toFixed(1)} ms a test including validation); load average ${os.loadavg()[0].toFixed(2)}`,
  );
} finally {
  await sandbox.close();
  fs.rmSync(work, { recursive: true, force: true });
}
