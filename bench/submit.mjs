// Participants submitting: BENCH_CLIENTS (20) concurrent participants, each submitting small
// source files (a file part with its sha256, as the contract's multipart submit takes them) one
// after another for BENCH_SECONDS (10) s. Prints accepted submissions/second. Target: at least 300/s.
//
// The judge runs in a child process (judge-child.mjs); the contest and the participants are made
// through the API, the submissions are sent with the built SDK's JudgeClient from this process.
// Every submission's bytes differ, so each one is hashed, checked and stored as a new file.
//
//   cd /work/main && pnpm build && node bench/submit.mjs
//   env: BENCH_SECONDS (default 10), BENCH_CLIENTS (default 20), BENCH_BYTES (source size, default 300),
//        BENCH_PROFILE (a directory: the judge process writes a V8 CPU profile there on exit),
//        BENCH_DATABASE (a PostgreSQL cluster's URL: the judge keeps its data in a new database there; SQLite when unset)
import { performance } from 'node:perf_hooks';
import { benchEngine, fmt, loadAverage, startChild } from './lib.mjs';
import { makeContest, participants, percentile, sha256 } from './contest.mjs';

const { ops } = await import('../packages/sdk/dist/index.js');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const BYTES = Number(process.env.BENCH_BYTES ?? 300);
const WARMUP_SECONDS = 2;
const TARGET = 300;

const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const judge = startChild('./judge-child.mjs', [], profile);
const base = await judge.ready;
const contest = await makeContest(base);
const people = await participants(base, contest, CLIENTS);

let seq = 0;
/** A small C++ source, different every time. */
function source() {
  const n = ++seq;
  const head = `// submission ${n}\n#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << "\\n"; }\n`;
  return head + '/'.repeat(Math.max(0, BYTES - head.length - 1)) + '\n';
}

function submitOnce(client) {
  const code = source();
  const form = new FormData();
  form.set('file', new Blob([code], { type: 'text/x-c++src' }), 'sum.cpp');
  form.set('sha256', sha256(code));
  form.set('props', '{"language":"cpp"}');
  return client.call(ops.submit, { params: { idOrSlug: contest.activity.slug, problemSlug: contest.problemSlug }, form });
}

/** Every client submits back to back until `seconds` are up; answers the latencies of the accepted ones and the failures. */
async function load(seconds) {
  const end = performance.now() + seconds * 1000;
  const ms = [];
  const failures = {};
  await Promise.all(
    people.map(async (p) => {
      while (performance.now() < end) {
        const a = performance.now();
        try {
          const s = await submitOnce(p.client);
          if (s.state !== 'queued') throw new Error(`state ${s.state}`);
          ms.push(performance.now() - a);
        } catch (e) {
          const key = e.code ?? e.message;
          failures[key] = (failures[key] ?? 0) + 1;
        }
      }
    }),
  );
  return { ms, failures };
}

console.log(`POST /activities/{slug}/problems/{problemSlug}/submissions: ${CLIENTS} participants submitting ${BYTES}-byte files back to back, ${benchEngine()}, Node ${process.version}`);
const loadStart = await loadAverage();
console.log(`  at the start: ${loadStart}`);
await load(WARMUP_SECONDS);
const before = (await judge.request('cpu')).cpu;
const t0 = performance.now();
const { ms, failures } = await load(SECONDS);
const seconds = (performance.now() - t0) / 1000;
const after = (await judge.request('cpu')).cpu;
const total = await contest.admin.call(ops.listSubmissions, { query: { activityId: contest.activity.id, pageSize: 1 } });
const queued = await contest.admin.call(ops.listSubmissions, { query: { activityId: contest.activity.id, state: 'queued', pageSize: 1 } });
await judge.stop();

ms.sort((a, b) => a - b);
const rate = ms.length / seconds;
const cpuUs = (after.user - before.user + after.system - before.system) / ms.length;
console.log(`  ${fmt(ms.length)} accepted in ${fmt(seconds, 2)} s (after ${WARMUP_SECONDS} s warm-up): ${fmt(rate)} submissions/s`);
console.log(`  latency p50 ${fmt(percentile(ms, 50), 1)} ms, p99 ${fmt(percentile(ms, 99), 1)} ms, max ${fmt(ms.at(-1) ?? NaN, 1)} ms; failures ${JSON.stringify(failures)}`);
console.log(`  judge CPU ${fmt(cpuUs)} µs per submission, i.e. at most ${fmt(1e6 / cpuUs)} submissions/s on one core`);
console.log(`  check: the activity holds ${fmt(total.total)} submissions, ${fmt(queued.total)} of them queued`);
console.log(`target ≥ ${fmt(TARGET)} submissions/s: ${rate >= TARGET ? 'met' : 'NOT met'} (${fmt(rate)})`);
const loadEnd = await loadAverage();
console.log(`  at the end: ${loadEnd}`);
// for engines.mjs, which runs this script on each engine and prints them side by side
if (process.env.BENCH_RESULT === '1') console.log(`BENCH_RESULT ${JSON.stringify({ perSecond: rate, p50: percentile(ms, 50), p99: percentile(ms, 99), cpuUs, failures, loadStart, loadEnd })}`);
if (Object.keys(failures).length) process.exitCode = 1;
