// The participant's two most frequent reads in participants-load.mjs' mix, through the services in
// the judge's own process (no HTTP, no sockets: what the read itself costs): the own submissions
// list (polled every 10 s by every participant) and a problem opened. A contest with
// BENCH_PARTICIPANTS (50) participants of BENCH_SUBMISSIONS (20) submissions each, made through the
// API; then BENCH_CALLS (3000) calls of each, alternating, after a warm-up of a tenth of them.
// Prints CPU µs per call (process.cpuUsage: the figure a busy machine moves least) and wall µs, and
// the load average.
//
//   cd /work/main && pnpm build && node bench/participant-polls.mjs
//   env: BENCH_PARTICIPANTS, BENCH_SUBMISSIONS, BENCH_CALLS, BENCH_DATABASE (a PostgreSQL cluster's URL)
import { performance } from 'node:perf_hooks';
import { ops } from '../packages/sdk/dist/index.js';
import { benchEngine, fmt, loadAverage, pool, startBenchApp } from './lib.mjs';
import { makeContest, participants, sha256 } from './contest.mjs';

const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 50);
const SUBMISSIONS = Number(process.env.BENCH_SUBMISSIONS ?? 20);
const CALLS = Number(process.env.BENCH_CALLS ?? 3000);

const { app, cleanup } = await startBenchApp();
const contest = await makeContest(app.url);
const people = await participants(app.url, contest, PARTICIPANTS);
await pool(people, 4, async (p) => {
  for (let i = 0; i < SUBMISSIONS; i++) {
    const code = `print(sum(map(int, input().split())))  # ${p.id} ${i}\n`;
    const form = new FormData();
    form.set('file', new Blob([code], { type: 'text/x-python' }), 'sum.py');
    form.set('sha256', sha256(code));
    form.set('props', '{"language":"python3"}');
    await p.client.call(ops.submit, { params: { idOrSlug: contest.activity.slug, problemSlug: contest.problemSlug }, form });
  }
});
console.log(`participant polls: ${fmt(PARTICIPANTS)} participants × ${SUBMISSIONS} submissions, ${fmt(CALLS)} calls of each read, ${benchEngine()}, Node ${process.version}`);
console.log(`  at the start: ${await loadAverage()}`);

const actors = people.map((p) => ({ userId: p.id, sessionId: 'bench', via: 'cookie' }));
const reads = {
  'own submissions list': (a) => app.services.submissions.listOwn(a, contest.activity.slug, {}),
  'problem opened': (a) => app.services.participant.getProblem(a, contest.activity.slug, contest.problemSlug),
};
const check = await reads['own submissions list'](actors[0]);
if (check.total !== SUBMISSIONS) throw new Error(`the own list holds ${check.total} submissions, ${SUBMISSIONS} expected`);

const figures = Object.fromEntries(Object.keys(reads).map((k) => [k, { cpu: 0, wall: 0, n: 0 }]));
for (const [round, calls] of [['warm-up', Math.ceil(CALLS / 10)], ['measured', CALLS]]) {
  for (let i = 0; i < calls; i++) {
    for (const [name, read] of Object.entries(reads)) {
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      await read(actors[i % actors.length]);
      if (round !== 'measured') continue;
      const c = process.cpuUsage(c0);
      figures[name].cpu += c.user + c.system;
      figures[name].wall += (performance.now() - w0) * 1000;
      figures[name].n++;
    }
  }
}
for (const [name, f] of Object.entries(figures)) console.log(`  ${name.padEnd(22)} CPU ${fmt(f.cpu / f.n)} µs per call, wall ${fmt(f.wall / f.n)} µs`);
console.log(`  at the end: ${await loadAverage()}`);
await app.close();
await cleanup();
process.exit(0);
