// Runner throughput: BENCH_JOBS (20,000) queued submissions, then BENCH_RUNNERS (8) runner
// clients (the SDK's RunnerClient, built) doing nothing but claim → report until the queue is
// empty. Prints jobs/second. Target: at least 1,000 jobs/s.
//
// The judge runs in a child process (this same file, started with the argument `child`). The
// contest, the participants, their source files and the runners are made through the API; the
// queued submissions are written by the judge process straight into its database, exactly as
// the submit operation writes them (submission, its source file, attempt 1 queued), since
// submitting 20,000 over HTTP would take a minute of its own (bench/submit.mjs measures that).
//
//   cd /work/main && pnpm build && node bench/claim-report.mjs
//   env: BENCH_JOBS (measured, default 20000), BENCH_WARMUP (jobs before measuring, default 2000), BENCH_RUNNERS (default 8),
//        BENCH_PARTICIPANTS (default 1000: about 20 submissions each),
//        BENCH_PROFILE (a directory: the judge process writes a V8 CPU profile there on exit),
//        BENCH_LISTEN=1 (the administrator keeps one event socket open: every job's events are then built and sent),
//        BENCH_DATABASE (a PostgreSQL cluster's URL: the judge keeps its data in a new database there; SQLite when unset),
//        BENCH_RESULT=1 (a last line `BENCH_RESULT {json}` of the figures, for engines.mjs), BENCH_LOG=1 (the judge's log on standard output)
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ADMIN_PASSWORD, benchEngine, fmt, goalLine, loadAverage, pool, serverRequire, startBenchApp, startChild } from './lib.mjs';
import { PROBLEM_TYPE, makeContest, participants, percentile } from './contest.mjs';

const JOBS = Number(process.env.BENCH_JOBS ?? 20_000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2_000);
const RUNNERS = Number(process.env.BENCH_RUNNERS ?? 8);
const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 1_000);
const TARGET = 1000;
/** The judge's CPU per job the issue allows (claim + report), in µs. */
const TARGET_CPU_US = 700;

if (process.argv[2] === 'child') await child();
else await main();

// ---------------------------------------------------------------- the judge process

async function child() {
  const { app, cleanup } = await startBenchApp();
  const data = await import('./engine-data.mjs');
  const { attempts, submissions } = data.schema;

  process.on('message', async (m) => {
    if (m.cmd === 'queue') {
      process.send({ id: m.id, queued: await queue(app, data, m) });
    } else if (m.cmd === 'counts') {
      const { sql } = data.drizzle;
      const most = await app.deps.tx.read((q) => q.select({ d: sql`max(${attempts.deliveries})`.mapWith(Number) }).from(attempts));
      process.send({ id: m.id, attempts: await data.countByState(app, attempts), submissions: await data.countByState(app, submissions), maxDeliveries: most[0].d });
    } else if (m.cmd === 'plan') {
      // SQLite's plan of the claim's candidate query; PostgreSQL's depends on its statistics, and is not shown
      if (app.deps.tx.engineName !== 'sqlite') return process.send({ id: m.id, plan: [`(${app.deps.tx.engineName}: not shown)`] });
      const plan = app.deps.sqlite
        .prepare(
          `EXPLAIN QUERY PLAN SELECT a.id, se.runner_tags AS seriesTags, ac.runner_tags AS activityTags
           FROM attempts a JOIN submissions sb ON sb.id = a.submission_id JOIN series se ON se.id = sb.series_id JOIN activities ac ON ac.id = sb.activity_id
           WHERE a.state = 'queued' AND a.problem_type IN (SELECT value FROM json_each(?))
           ORDER BY a.priority, a.created_at, a.id LIMIT 64 OFFSET ?`,
        )
        .all('["x"]', 0);
      process.send({ id: m.id, plan: plan.map((r) => r.detail) });
    } else if (m.cmd === 'cpu') {
      process.send({ id: m.id, cpu: process.cpuUsage() });
    } else if (m.cmd === 'stop') {
      await app.close();
      await cleanup();
      process.exit(0);
    }
  });
  process.send({ ready: true, url: app.url });
}

/** Writes what a submit writes, `n` times in one transaction: the submission, its source file, attempt 1 queued. */
async function queue(app, { schema }, { n, contest, users }) {
  const start = Date.now() - n;
  const rows = { submissions: [], files: [], attempts: [] };
  for (let i = 0; i < n; i++) {
    const u = users[i % users.length];
    const id = randomUUID();
    const at = new Date(start + i).toISOString();
    rows.submissions.push({
      id, activityId: contest.activityId, seriesId: contest.seriesId, seriesProblemId: contest.assignmentId, problemVersionId: contest.versionId,
      userId: u.id, submittedAt: at, props: { language: 'python3' }, state: 'queued', attempts: 1, ipAddress: '127.0.0.1',
    });
    rows.files.push({ submissionId: id, name: 'source', fileName: 'sum.py', language: 'python3', fileId: u.fileId });
    rows.attempts.push({ id: randomUUID(), submissionId: id, attempt: 1, state: 'queued', priority: 0, problemVersionId: contest.versionId, problemType: PROBLEM_TYPE, createdAt: at });
  }
  await (await import('./engine-data.mjs')).insertAll(app, [
    [schema.submissions, rows.submissions],
    [schema.submissionFiles, rows.files],
    [schema.attempts, rows.attempts],
  ]);
  return n;
}

// ---------------------------------------------------------------- the runners

async function main() {
  const sdk = await import('../packages/sdk/dist/index.js');
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const judge = startChild('./claim-report.mjs', ['child'], profile);
  const base = await judge.ready;
  const started = Date.now();

  const contest = await makeContest(base);
  const { queued } = await queueSubmissions(judge, base, contest);
  const runners = await registerRunners(sdk, base, contest);
  const { plan } = await judge.request('plan');
  console.log(
    `claim → report: ${fmt(queued)} queued submissions (${fmt(PARTICIPANTS)} participants, one problem with a package), ${RUNNERS} runner clients, ` +
      `the first ${fmt(WARMUP)} jobs are warm-up, ${benchEngine()}, Node ${process.version}`,
  );
  console.log(`  claim query plan: ${plan.join(' | ')}`);
  console.log(`  set-up ${fmt((Date.now() - started) / 1000, 1)} s`);

  const listener = process.env.BENCH_LISTEN === '1' ? await listen(base) : undefined;
  console.log(`  event sockets open: ${listener ? "1 (the administrator's, told of every submission)" : 'none (the events are not built)'}`);
  const loadStart = await loadAverage();
  console.log(`  at the start: ${loadStart}`);
  const run = await drain(runners, judge);
  if (listener) {
    console.log(`  event frames received by the socket: ${fmt(listener.frames())}`);
    listener.close();
  }
  const loadEnd = await loadAverage();
  const counts = await judge.request('counts');
  await judge.stop();
  const figures = summarise(run, counts);
  console.log(`  at the end: ${loadEnd}`);
  // for engines.mjs, which runs this script on each engine and prints them side by side
  if (process.env.BENCH_RESULT === '1') console.log(`BENCH_RESULT ${JSON.stringify({ ...figures, loadStart, loadEnd })}`);
}

/** The administrator's event socket (a cookie session), counting the frames it is sent. */
async function listen(base) {
  const WebSocket = serverRequire('ws');
  const res = await fetch(`${base}/api/v1/identity/login?useCookies=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin', password: ADMIN_PASSWORD }),
  });
  if (!res.ok) throw new Error(`login admin: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('judge_session=')).split(';')[0];
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/api/v1/ws`, { headers: { cookie, origin: new URL(base).origin }, perMessageDeflate: false });
  let frames = 0;
  ws.on('message', () => frames++);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('unexpected-response', (_q, r) => reject(new Error(`handshake refused: ${r.statusCode}`)));
    ws.once('error', reject);
  });
  return { frames: () => frames, close: () => ws.terminate() };
}

/** The participants, one source file each, and WARMUP + JOBS submissions of them queued. */
async function queueSubmissions(judge, base, contest) {
  const people = await participants(base, contest, PARTICIPANTS);
  const users = await pool(people, 4, async (p, i) => {
    const f = await p.client.upload('sum.py', `print(sum(map(int, input().split())))  # ${i}\n`, 'text/x-python');
    return { id: p.id, fileId: f.id };
  });
  const ids = { activityId: contest.activity.id, seriesId: contest.seriesId, assignmentId: contest.assignmentId, versionId: contest.versionId };
  return judge.request('queue', { n: WARMUP + JOBS, contest: ids, users });
}

/** RUNNERS runner clients, registered, approved and signed in. */
function registerRunners({ RunnerClient, generateRunnerKey, ops }, base, contest) {
  return pool(
    Array.from({ length: RUNNERS }, (_, i) => i),
    4,
    async (i) => {
      const r = new RunnerClient({ baseUrl: base, key: generateRunnerKey(), userAgent: 'bench-runner' });
      const reg = await r.register({ name: `bench-runner-${i}`, problemTypes: [PROBLEM_TYPE], version: 'bench' });
      await contest.admin.call(ops.approveRunner, { params: { id: reg.runnerId } });
      await r.authenticate();
      return r;
    },
  );
}

/** Every runner claims and reports until the queue is empty; the jobs after the warm-up are timed. */
async function drain(runners, judge) {
  const run = { claimMs: [], reportMs: [], marks: [], seen: new Set(), duplicates: 0, done: 0, from: undefined, t0: performance.now() };
  await Promise.all(
    runners.map(async (r) => {
      for (;;) {
        const a = performance.now();
        const job = await r.claim({ leaseSeconds: 300 });
        const b = performance.now();
        if (!job) return;
        if (run.seen.has(job.jobId)) run.duplicates++;
        run.seen.add(job.jobId);
        const res = await r.report(job, { verdict: 'AC', score: 1, maxScore: 1, runnerVersion: 'bench' });
        const c = performance.now();
        if (res.duplicate) run.duplicates++;
        // when the warm-up is over: the time and both processes' CPU use
        if (++run.done === WARMUP) run.from = { at: c, own: process.cpuUsage(), judge: judge.request('cpu') };
        else if (run.done > WARMUP) {
          run.claimMs.push(b - a);
          run.reportMs.push(c - b);
          run.marks.push(c - run.t0); // completion times of the measured jobs
        }
      }
    }),
  );
  run.end = performance.now();
  run.own = process.cpuUsage(run.from.own);
  run.cpuBefore = (await run.from.judge).cpu;
  run.cpuAfter = (await judge.request('cpu')).cpu;
  return run;
}

function summarise({ claimMs, reportMs, marks, seen, duplicates, done, from, t0, end, own, cpuBefore, cpuAfter }, counts) {
  const measured = marks.length;
  const seconds = (end - from.at) / 1000;
  const rate = measured / seconds;
  claimMs.sort((x, y) => x - y);
  reportMs.sort((x, y) => x - y);
  marks.sort((x, y) => x - y);
  // the rate in each fifth of the measured run: does the queue's length matter?
  const startMs = from.at - t0;
  const fifths = [1, 2, 3, 4, 5].map((k) => {
    const lo = Math.floor(((k - 1) / 5) * measured);
    const hi = Math.floor((k / 5) * measured) - 1;
    return (hi - lo + 1) / ((marks[hi] - (lo ? marks[lo - 1] : startMs)) / 1000);
  });
  const cpuUs = (cpuAfter.user - cpuBefore.user + cpuAfter.system - cpuBefore.system) / measured;
  console.log(`  ${fmt(measured)} jobs in ${fmt(seconds, 2)} s: ${fmt(rate)} jobs/s (by fifths of the run: ${fifths.map((f) => fmt(f)).join(', ')})`);
  console.log(`  claim  latency p50 ${fmt(percentile(claimMs, 50), 2)} ms, p99 ${fmt(percentile(claimMs, 99), 2)} ms`);
  console.log(`  report latency p50 ${fmt(percentile(reportMs, 50), 2)} ms, p99 ${fmt(percentile(reportMs, 99), 2)} ms`);
  const userUs = (cpuAfter.user - cpuBefore.user) / measured;
  console.log(`  judge CPU ${fmt(cpuUs)} µs per job (claim + report; user ${fmt(userUs)}, system ${fmt(cpuUs - userUs)}), i.e. at most ${fmt(1e6 / cpuUs)} jobs/s on one core`);
  console.log(`  runner clients' CPU (this process) ${fmt((own.user + own.system) / measured)} µs per job`);
  const all = WARMUP + JOBS;
  const ok = done === all && seen.size === all && duplicates === 0 && !counts.attempts.queued && !counts.attempts.running && counts.submissions.completed === all;
  console.log(`  check: ${fmt(seen.size)} distinct jobs, ${duplicates} handed out twice, attempts ${JSON.stringify(counts.attempts)}, most deliveries ${counts.maxDeliveries}: ${ok ? 'ok' : 'WRONG'}`);
  console.log(goalLine('claim → report throughput', rate, TARGET, 'jobs/s', false));
  console.log(goalLine('judge CPU per job', cpuUs, TARGET_CPU_US, 'µs', true));
  console.log(`  one core serves ${fmt(1e6 / cpuUs)} jobs/s at the measured judge CPU per job (the runners elsewhere, as in a lab)`);
  if (!ok) process.exitCode = 1;
  return { jobsPerSecond: rate, cpuUsPerJob: cpuUs, claimP50: percentile(claimMs, 50), claimP99: percentile(claimMs, 99), reportP50: percentile(reportMs, 50), reportP99: percentile(reportMs, 99), ok };
}
