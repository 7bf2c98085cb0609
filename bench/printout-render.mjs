// Printout rendering is linear in the source: the time to make the PDF of a printout at 16, 32,
// 64, 128 and 256 KiB, for two shapes — one single line of one identifier (the probe's case: it took
// 263 s at 256 KiB when highlighting and wrapping were superlinear) and ordinary C++ lines — with
// the time per KiB relative to the smallest size (1.0 = linear; the old code grew to ~20x). Also
// the same 256 KiB single line through the bounded pool, as the server makes it (a worker thread).
// Prints the load average at the start and the end. BENCH_ROUNDS (3) rounds, the median kept.
//
//   cd /work/main && pnpm build && node bench/printout-render.mjs
import os from 'node:os';
import { renderPrintout } from '../packages/server/dist/modules/printouts/pdf.js';
import { BoundedPool } from '../packages/server/dist/offloop/pool.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SIZES = [16, 32, 64, 128, 256];
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const shapes = {
  'one line': (kib) => 'x'.repeat(kib * 1024 - 1),
  'C++ lines': (kib) =>
    Array.from({ length: Math.ceil((kib * 1024) / 62) }, (_, i) => `int v${i % 1000} = f(${i}) + g("s") * 3; // note ${i % 97}`.padEnd(61, ' '))
      .join('\n')
      .slice(0, kib * 1024),
};
const page = (source) => ({ participant: 'bench', subject: 'Bench', fileName: 'a.cpp', time: '2026-01-01 10:00 (UTC)', source });

async function timed(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

console.log(`load average at start: ${load()}`);
for (const [name, make] of Object.entries(shapes)) {
  const perKib = [];
  for (const kib of SIZES) {
    const source = make(kib);
    const times = [];
    for (let r = 0; r < ROUNDS; r++) times.push(await timed(() => renderPrintout(page(source))));
    const ms = median(times);
    perKib.push(ms / kib);
    console.log(`${name.padEnd(10)} ${String(kib).padStart(4)} KiB: ${ms.toFixed(0).padStart(6)} ms  per KiB ${(ms / kib).toFixed(2)} ms  ratio to ${SIZES[0]} KiB ${(ms / kib / perKib[0]).toFixed(2)}`);
  }
}

const pool = new BoundedPool({ size: 1 });
const job = { name: 'printout', module: new URL('../packages/server/dist/modules/printouts/render-job.js', import.meta.url), timeoutMs: 120_000, memoryMb: 256 };
await pool.run(job, page('int x;'));
const big = shapes['one line'](256);
const onPool = median(await Promise.all(Array.from({ length: 1 }, () => timed(() => pool.run(job, page(big))))));
console.log(`one line 256 KiB on the bounded pool (a started thread): ${onPool.toFixed(0)} ms`);
await pool.close();
console.log(`load average at end: ${load()}`);
