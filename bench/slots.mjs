// How many sandbox slots this machine judges well with, and how steady the CPU times are.
// For each configuration (slots × CPU pinning), side by side in one run:
//   throughput  BENCH_SUBMISSIONS (16) distinct trivial C++ solutions (a comment differs) of the
//               10-test a + b problem, judged by `slots` concurrent loops as judge-runner's slots
//               judge jobs: judged/min;
//   stability   one accepted C++ solution that spends a fixed amount of CPU per test, judged
//               BENCH_REPEATS (50) times by the same loops, through the runner's compile cache
//               (an identical resubmission compiles nothing, as in judge-runner): per judging its
//               slowest test's CPU time (what the time limit is compared with); spread =
//               (max − min) / median, and (p95 − p5) / median beside it. Target: spread under 10 %
//               at the chosen slot count. Every verdict must be AC.
// Prints a table, the load average at the start and the end, and the configuration with the best
// throughput whose spread stays under 10 % (what judge-runner start picks by default).
//
//   cd /work/main && pnpm build && node bench/slots.mjs
//   env: BENCH_SUBMISSIONS, BENCH_REPEATS, BENCH_CONFIGS (e.g. "1,1p,2,2p": p = pinned)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CompileCache, Sandbox, judgeSubmission, loadLanguages } from '../packages/runner/dist/index.js';
import { load, median, sumProblem, sumSource } from './judging-lib.mjs';

const SUBMISSIONS = Number(process.env.BENCH_SUBMISSIONS ?? 16);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 50);
const CPUS = os.availableParallelism();
const CONFIGS = (process.env.BENCH_CONFIGS ?? `1,1p,${CPUS},${CPUS}p`).split(',').map((c) => ({ slots: Number.parseInt(c, 10), pinned: c.endsWith('p') }));

/** Reads a and b, spends a fixed number of loop iterations (about 40 ms), prints a + b. */
const heavySource = `#include <iostream>
int main() {
  long long a, b;
  std::cin >> a >> b;
  volatile unsigned long x = 0;
  for (unsigned long i = 0; i < 60000000UL; i++) x += i;
  std::cout << a + b << "\\n";
}
`;

/** `count` judgings by `slots` concurrent loops; `source(i)` gives the i-th submission. */
async function judgeAll(ctx, sandbox, slots, count, source, compileCache) {
  let next = 0;
  const results = [];
  const loop = async () => {
    for (;;) {
      const i = next++;
      if (i >= count) return;
      const r = await judgeSubmission({
        sandbox,
        languages: ctx.languages,
        problem: ctx.problem,
        files: [{ name: 'sum.cpp', bytes: Buffer.from(source(i)) }],
        buildDir: path.join(ctx.work, `build-${slots}-${Math.random().toString(36).slice(2)}`),
        ...(compileCache ? { compileCache } : {}),
      });
      results.push(r);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: slots }, loop));
  return { results, ms: performance.now() - t0 };
}

async function measure(ctx, { slots, pinned }) {
  const cpus = pinned ? Array.from({ length: CPUS }, (_, i) => (slots === 1 ? CPUS - 1 - i : i)) : [];
  const sandbox = await Sandbox.create({ slots, cpus, uidBase: 61800 });
  try {
    const tput = await judgeAll(ctx, sandbox, slots, SUBMISSIONS, (i) => sumSource(`${slots}${pinned ? 'p' : ''} submission ${i}`));
    const compileCache = new CompileCache({ dir: path.join(ctx.work, `cache-${slots}${pinned ? 'p' : ''}`) });
    const stab = await judgeAll(ctx, sandbox, slots, REPEATS, () => heavySource, compileCache);
    const all = [...tput.results, ...stab.results];
    const notAc = all.filter((r) => r.verdict !== 'AC').map((r) => r.verdict);
    const worst = stab.results.map((r) => Math.max(...r.details.tests.map((t) => t.cpuMs ?? 0)));
    const med = median(worst);
    const sorted = [...worst].sort((a, b) => a - b);
    const pct = (p) => sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * p))];
    return {
      slots,
      pinned,
      perMin: (SUBMISSIONS / tput.ms) * 60_000,
      cpuMin: Math.min(...worst),
      cpuMed: med,
      cpuMax: Math.max(...worst),
      spread: (Math.max(...worst) - Math.min(...worst)) / med,
      spread90: (pct(0.95) - pct(0.05)) / med,
      notAc,
    };
  } finally {
    await sandbox.close();
  }
}

const loadStart = load();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-slots-'));
fs.chmodSync(work, 0o711);
try {
  const { problem } = await sumProblem(work, 10);
  const ctx = { languages: loadLanguages(), problem, work };
  const rows = [];
  for (const c of CONFIGS) {
    const row = await measure(ctx, c);
    rows.push(row);
    console.log(
      `${String(row.slots).padStart(2)} slot${row.slots === 1 ? ' ' : 's'} ${row.pinned ? 'pinned  ' : 'unpinned'}  ` +
        `${row.perMin.toFixed(1).padStart(6)} judged/min   slowest test CPU min ${row.cpuMin} / median ${row.cpuMed} / max ${row.cpuMax} ms, ` +
        `spread ${(row.spread * 100).toFixed(1)} % (p5–p95 ${(row.spread90 * 100).toFixed(1)} %)   ${row.notAc.length ? `NOT AC: ${row.notAc.join(', ')}` : `all ${SUBMISSIONS + REPEATS} AC`}`,
    );
  }
  const base = rows.find((r) => r.slots === 1 && !r.pinned) ?? rows[0];
  for (const r of rows) if (r !== base) console.log(`  ${r.slots}${r.pinned ? 'p' : ''} vs 1 unpinned: throughput ${(r.perMin / base.perMin).toFixed(2)}×`);
  const good = rows.filter((r) => r.spread < 0.1 && r.notAc.length === 0).sort((a, b) => b.perMin - a.perMin)[0];
  console.log(good ? `best with spread < 10 %: ${good.slots} slot(s), ${good.pinned ? 'pinned' : 'unpinned'} (${good.perMin.toFixed(1)} judged/min, spread ${(good.spread * 100).toFixed(1)} %)` : 'no configuration kept the spread under 10 %');
  console.log(`load average (1, 5, 15 min): start ${loadStart}, end ${load()} (${CPUS} CPUs)`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
