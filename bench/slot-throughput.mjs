// Submissions judged per minute by one sandbox slot: BENCH_SUBMISSIONS (24) trivial C++
// solutions, each a distinct source (a comment), judged one after another through judgeSubmission
// as judge-runner's slot judges its jobs, on a 10-test a + b problem. Beside each judging, the
// floor of its test phase (a plain spawn of the binary per test plus the in-process default
// validator). Prints judged/min, the median compile and test-phase times per submission, the
// floor-based ideal (judged/min if the tests ran at the floor and the compile took what it took)
// and the load average at the start and the end. BENCH_WARMUP (2) judgings are not counted.
//
//   cd /work/main && pnpm build && node bench/slot-throughput.mjs
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { judgeSubmission } from '../packages/runner/dist/index.js';
import { FLOOR_DESCRIPTION, floorPhase, judgeTimed, load, median, p95, sumSource, withSumBench } from './judging-lib.mjs';

const SUBMISSIONS = Number(process.env.BENCH_SUBMISSIONS ?? 24);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const TESTS = 10;
const ms = (x) => `${x.toFixed(0)} ms`;

/** Judges the submissions back to back (the slot's rate), then measures the floor as often. */
async function measure(ctx) {
  const { timed, languages, problem, tests, work, binary } = ctx;
  const judge = (i) =>
    judgeTimed(judgeSubmission, timed, { languages, problem, files: [{ name: 'sum.cpp', bytes: Buffer.from(sumSource(`submission ${i}`)) }], buildDir: path.join(work, `build-${i}`) });
  for (let i = 0; i < WARMUP; i++) await judge(-1 - i);
  const rows = [];
  const t0 = performance.now();
  for (let i = 0; i < SUBMISSIONS; i++) {
    const j = await judge(i);
    if (j.result.details.tests.length !== TESTS) throw new Error(`expected ${TESTS} tests, got ${j.result.details.tests.length}`);
    rows.push(j);
  }
  const wallMs = performance.now() - t0;
  const floors = [];
  for (let i = 0; i < SUBMISSIONS; i++) floors.push(await floorPhase(binary, tests, work));
  return { rows, wallMs, floors };
}

function report({ rows, wallMs, floors }, loadStart) {
  const compileMs = median(rows.map((r) => r.compileMs));
  const testsMs = median(rows.map((r) => r.testsMs));
  const totalMs = median(rows.map((r) => r.totalMs));
  const floorMs = median(floors);
  const perMin = (rows.length / wallMs) * 60_000;
  const ideal = 60_000 / (compileMs + floorMs);
  console.log(`${FLOOR_DESCRIPTION}.`);
  console.log(`one slot, ${TESTS}-test problem, trivial C++ solution, ${rows.length} distinct submissions back to back (after ${WARMUP} not counted):`);
  console.log(`  judged/min             ${perMin.toFixed(1)}   (${(wallMs / 1000).toFixed(2)} s for ${rows.length})`);
  console.log(`  per submission         median ${ms(totalMs)}, p95 ${ms(p95(rows.map((r) => r.totalMs)))}`);
  console.log(`    compile              median ${ms(compileMs)}, p95 ${ms(p95(rows.map((r) => r.compileMs)))}`);
  console.log(`    test phase           median ${ms(testsMs)} (${(testsMs / TESTS).toFixed(1)} ms a test), p95 ${ms(p95(rows.map((r) => r.testsMs)))}`);
  console.log(`      running the program median ${ms(median(rows.map((r) => r.runsMs)))} in the sandbox (the rest: validation, files, scoring)`);
  console.log(`  floor of the tests     median ${ms(floorMs)} (${(floorMs / TESTS).toFixed(1)} ms a test); test phase / floor ${(testsMs / floorMs).toFixed(2)}×`);
  console.log(`  floor-based ideal      ${ideal.toFixed(1)} judged/min (measured compile + floor tests); measured / ideal ${((perMin / ideal) * 100).toFixed(0)} %`);
  console.log(`  load average (1, 5, 15 min): start ${loadStart}, end ${load()} (${os.cpus().length} CPUs)`);
}

const loadStart = load();
await withSumBench('bench-slot-', TESTS, async (ctx) => {
  report(await measure(ctx), loadStart);
});
