// A 100-test problem judged with a trivial C++ solution, as judge-runner judges a submission:
// package extracted and loaded, the source compiled in the sandbox, every test run in the sandbox
// and checked by the default validator. Side by side in each round, the physical floor of the
// test phase: the same binary spawned plainly per test plus the default validator's comparison
// (in process, as judging runs it). Prints the total judging time, the compile time, the test
// phase, the floor and the ratio test phase / floor (target: within 1.5×; the judging issue's was 3×), with the load average at
// the start and the end. BENCH_ROUNDS (3) rounds; the figures of each round and their median.
//
//   cd /work/main && pnpm build && node bench/judge-100.mjs
import os from 'node:os';
import path from 'node:path';
import { judgeSubmission } from '../packages/runner/dist/index.js';
import { FLOOR_DESCRIPTION, floorPhase, judgeTimed, load, median, p95, sumSource, withSumBench } from './judging-lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TESTS = 100;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

async function round(r, ctx) {
  const { timed, languages, problem, tests, work, binary } = ctx;
  // the order of judging and floor flips every round, so load from elsewhere hits both alike
  let floorMs = r % 2 === 1 ? await floorPhase(binary, tests, work) : 0;
  // each round's source differs (a comment), so no round reuses another's build
  const files = [{ name: 'sum.cpp', bytes: Buffer.from(sumSource(`round ${r}`)) }];
  const j = await judgeTimed(judgeSubmission, timed, { languages, problem, files, buildDir: path.join(work, `build-${r}`) });
  if (r % 2 === 0) floorMs = await floorPhase(binary, tests, work);
  const walls = j.result.details.tests.map((t) => t.wallMs ?? 0);
  const cpus = j.result.details.tests.map((t) => t.cpuMs ?? 0);
  const n = walls.length;
  if (n !== TESTS) throw new Error(`expected ${TESTS} tests, got ${n}`);
  const row = { total: j.totalMs, compileMs: j.compileMs, testsMs: j.testsMs, runsMs: j.runsMs, floorMs, ratio: j.testsMs / floorMs };
  console.log(
    `round ${r + 1}: total ${s(row.total)} (compile ${s(row.compileMs)}, test phase ${s(row.testsMs)} = ${(row.testsMs / n).toFixed(1)} ms a test, ` +
      `${(row.runsMs / n).toFixed(1)} of them running the program in the sandbox); ` +
      `floor ${s(floorMs)} = ${(floorMs / n).toFixed(1)} ms a test; test phase / floor ${row.ratio.toFixed(2)}×; ` +
      `test wall median ${median(walls)} ms, p95 ${p95(walls)} ms; CPU charged median ${median(cpus)} ms`,
  );
  return row;
}

function summary(rounds, loadStart) {
  const m = (k) => median(rounds.map((x) => x[k]));
  const ratio = m('ratio');
  console.log(`\n${FLOOR_DESCRIPTION}.`);
  console.log(
    `100-test problem, trivial C++ solution (median of ${rounds.length}): total judging time ${s(m('total'))}, compile ${s(m('compileMs'))}, ` +
      `test phase ${s(m('testsMs'))} (${(m('testsMs') / TESTS).toFixed(1)} ms a test, ${(m('runsMs') / TESTS).toFixed(1)} ms of it running the program in the sandbox), floor ${s(m('floorMs'))} (${(m('floorMs') / TESTS).toFixed(1)} ms a test), ` +
      `test phase / floor ${ratio.toFixed(2)}× (median of the rounds; target within 1.5×: ${ratio <= 1.5 ? 'met' : 'NOT met'}; within 3×: ${ratio <= 3 ? 'met' : 'NOT met'})`,
  );
  console.log(`load average (1, 5, 15 min): start ${loadStart}, end ${load()} (${os.cpus().length} CPUs)`);
}

const loadStart = load();
await withSumBench('bench-judge-', TESTS, async (ctx) => {
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push(await round(r, ctx));
  summary(rounds, loadStart);
});
