// GET /api/v1/activities/{slug}/series for an enrolled participant: 20 series × 10 problems in
// one activity, 10,000 submissions in the database. Prints requests/second and latency.
// Target: p99 under 20 ms.
//
// The judge runs in a child process (this same file, started with the argument `child`): the
// activity, series, problems, assignments, accounts and enrolments are made through the API; the
// submissions are written by the child straight into its database, since the submission API comes
// with the judging issue (and the database is the judge process's alone). autocannon runs here.
//
//   cd /work/main && pnpm build && node bench/participant-series.mjs
//   env: BENCH_SECONDS per measurement (default 5), BENCH_CONNECTIONS (a list, default 1,4,10),
//        BENCH_SUBMISSIONS (default 10000), BENCH_SERIES (default 20), BENCH_PROBLEMS per series (default 10),
//        BENCH_PROFILE (a directory: the judge process writes a CPU profile there)
import { createHash, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { adminToken, fmt, goalLine, json, loadAverage, pool, serverRequire, startBenchApp, startChild } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LEVELS = (process.env.BENCH_CONNECTIONS ?? '1,4,10').split(',').map(Number);
const SUBMISSIONS = Number(process.env.BENCH_SUBMISSIONS ?? 10_000);
const SERIES = Number(process.env.BENCH_SERIES ?? 20);
const PER_SERIES = Number(process.env.BENCH_PROBLEMS ?? 10);
const HEAVY_SHARE = 0.2; // one very active participant: 2,000 of 10,000, ten per problem
const OTHERS = 40; // the rest share the other submissions evenly: 200 each, one per problem
const WARMUP = 2;
const TARGET_P99_MS = 20;

if (process.argv[2] === 'child') await child();
else await main();

// ---------------------------------------------------------------- the judge process

/** Starts the built judge, as judge-child.mjs does, and answers `submissions`, `plan`, `cpu` and `stop`. */
async function child() {
  const { standingsQuery } = await import('../packages/server/dist/modules/participant/status.js');
  const { app, dataDir } = await startBenchApp();
  const sqlite = app.deps.sqlite;

  process.on('message', async (m) => {
    if (m.cmd === 'submissions') {
      process.send({ id: m.id, inserted: insertSubmissions(sqlite, m.rows) });
    } else if (m.cmd === 'plan') {
      // how SQLite runs the standings query: it must use an index on the caller's rows
      const query = await app.deps.tx.read(async (q) => standingsQuery(q, 'user', 'activity').toSQL());
      const plan = sqlite.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params);
      process.send({ id: m.id, plan: plan.map((r) => r.detail) });
    } else if (m.cmd === 'cpu') {
      process.send({ id: m.id, cpu: process.cpuUsage() });
    } else if (m.cmd === 'stop') {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    }
  });
  process.send({ ready: true, url: app.url });
}

/** Writes submission rows in one transaction: the newest attempt's state and outcome, as judging will leave them. */
function insertSubmissions(sqlite, rows) {
  const insert = sqlite.prepare(
    `INSERT INTO submissions (id, activity_id, series_id, series_problem_id, problem_version_id, user_id, submitted_at, state, verdict, score, max_score, excluded)
     VALUES (@id, @activityId, @seriesId, @assignmentId, @versionId, @userId, @submittedAt, @state, @verdict, @score, @maxScore, @excluded)`,
  );
  sqlite.transaction(() => {
    for (const r of rows) insert.run(r);
  })();
  return rows.length;
}

// ---------------------------------------------------------------- the load generator

async function main() {
  // BENCH_PROFILE=<dir> writes a CPU profile of the judge process there (open it in Chrome DevTools)
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const judge = startChild('./participant-series.mjs', ['child'], profile);
  const base = await judge.ready;
  const h = await apiHelpers(base);

  const started = Date.now();
  const { activity, assignments } = await makeActivity(h);
  const heavy = await participant(h, 'bench-heavy');
  const others = await pool(Array.from({ length: OTHERS }, (_, i) => i), 4, (i) => participant(h, `bench-other-${i}`));
  const typical = others[0];
  // the submissions, written by the judge process into its database (no submission API yet)
  const rows = submissionRows(activity, assignments, heavy, others);
  const { inserted } = await judge.request('submissions', { rows });
  const { plan } = await judge.request('plan');
  const url = `${h.api}/activities/bench/series`;

  console.log(`GET /api/v1/activities/{slug}/series: ${SERIES} series × ${PER_SERIES} problems, ${fmt(inserted)} submissions in the database`);
  await check(url, rows, 'typical', typical);
  await check(url, rows, 'heavy', heavy);
  console.log(`  standings query plan: ${plan.join(' | ')}`);
  console.log(`  set-up ${fmt((Date.now() - started) / 1000, 1)} s; ${SECONDS} s per measurement after ${WARMUP} s warm-up; Node ${process.version}`);

  console.log(`  at the start: ${await loadAverage()}`);
  const results = await measure(judge, url, [['typical', typical], ['heavy', heavy]]);
  const loadEnd = await loadAverage();
  await judge.stop();

  // a closed-loop load on one event loop queues: p99 grows with the connections, about n × the service time
  for (const name of ['typical', 'heavy']) {
    const passing = results.filter((x) => x.name === name && x.r.latency.p99 < TARGET_P99_MS).map((x) => x.connections);
    console.log(`${name}: p99 < ${TARGET_P99_MS} ms ${passing.length ? `up to ${Math.max(...passing)} concurrent connections` : 'at none of the levels measured'} (measured: ${LEVELS.join(', ')})`);
  }
  const goalAt = Math.max(...LEVELS);
  for (const x of results.filter((x) => x.connections === goalAt)) console.log(goalLine(`${x.name} participant's series list, p99 at ${goalAt} connections`, x.r.latency.p99, TARGET_P99_MS, 'ms', true));
  console.log(`at the end: ${loadEnd}`);
  if (results.some(({ r }) => r.non2xx || r.errors || r.timeouts)) console.log('warning: some requests failed (non-2xx or errors); the figures are not clean');
  process.exit(0);
}

/** POST as the administrator, and uploads of small text files. */
async function apiHelpers(base) {
  const api = `${base}/api/v1`;
  const admin = { authorization: `Bearer ${await adminToken(base)}` };
  const post = (path, body, headers = admin) =>
    json(`${api}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.body);
  async function upload(name, text) {
    const bytes = Buffer.from(text);
    const form = new FormData();
    form.set('sha256', createHash('sha256').update(bytes).digest('hex'));
    form.set('file', new Blob([bytes], { type: 'text/markdown' }), name);
    return (await json(`${api}/files`, { method: 'POST', headers: admin, body: form })).body;
  }
  return { api, post, upload };
}

/** The activity: SERIES series of PER_SERIES problems each, all open. */
async function makeActivity({ post, upload }) {
  const activity = await post('/activities', { slug: 'bench', name: 'Bench course', type: 'course@1', rankingType: 'points', timeZone: 'UTC', joinPolicy: 'open', unlisted: false });
  const past = new Date(Date.now() - 3_600_000).toISOString();
  const seriesList = [];
  for (let s = 0; s < SERIES; s++) seriesList.push(await post(`/activities/bench/series`, { slug: `week-${s + 1}`, name: `Week ${s + 1}`, startDate: past }));
  const assignments = []; // {assignmentId, seriesId, versionId}
  await pool(
    seriesList.flatMap((s, si) => Array.from({ length: PER_SERIES }, (_, pi) => ({ s, slug: `w${si + 1}-p${pi + 1}` }))),
    8,
    async ({ s, slug }) => {
      const problem = await post('/problems', { slug, name: `Problem ${slug}`, type: 'standard-io@1' });
      const statement = await upload('statement.md', `# ${slug}\n`);
      const version = await post(`/problems/${problem.id}/versions`, { statements: [{ fileId: statement.id }] });
      const after = await post(`/series/${s.id}/problems`, { problemId: problem.id, slug, maxPoints: 100 });
      assignments.push({ assignmentId: after.problems.find((p) => p.slug === slug).id, seriesId: s.id, versionId: version.id });
    },
  );
  return { activity, assignments };
}

/** A participant, enrolled through the API. */
async function participant({ api, post }, username) {
  const issued = await post('/users', { username });
  const { body: tokens } = await json(`${api}/identity/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: issued.username, password: issued.password }),
  });
  const auth = { authorization: `Bearer ${tokens.accessToken}` };
  await post('/activities/bench/enrolment', {}, auth);
  return { id: issued.userId, auth };
}

/** SUBMISSIONS rows: a HEAVY_SHARE of them the heavy participant's, the rest shared evenly by the others. */
function submissionRows(activity, assignments, heavy, others) {
  const heavyCount = Math.round(SUBMISSIONS * HEAVY_SHARE);
  const now = Date.now();
  return Array.from({ length: SUBMISSIONS }, (_, i) => {
    const mine = i < heavyCount;
    const k = mine ? i : i - heavyCount;
    const user = mine ? heavy : others[k % OTHERS];
    const n = mine ? k : Math.floor(k / OTHERS); // the submission's number among its author's own
    const a = assignments[n % assignments.length];
    const judged = n % 10 !== 3; // one in ten still waiting
    const score = judged ? [0, 25, 50, 100][(n + Math.floor(n / assignments.length)) % 4] : null;
    return {
      id: randomUUID(),
      activityId: activity.id,
      seriesId: a.seriesId,
      assignmentId: a.assignmentId,
      versionId: a.versionId,
      userId: user.id,
      submittedAt: new Date(now - (SUBMISSIONS - i) * 1000).toISOString(),
      state: judged ? 'completed' : 'queued',
      verdict: judged ? (score === 100 ? 'AC' : 'WA') : null,
      score,
      maxScore: judged ? 100 : null,
      excluded: n % 97 === 5 ? 1 : 0,
    };
  });
}

/** Checks the answer before measuring it: every problem shown, the caller's attempts all counted. */
async function check(url, rows, name, who) {
  const { body: list, res } = await json(url, { headers: who.auth });
  const shown = list.flatMap((s) => s.problems ?? []);
  const own = rows.filter((r) => r.userId === who.id).length;
  const attempts = shown.reduce((n, p) => n + p.attempts, 0);
  if (list.length !== SERIES || shown.length !== SERIES * PER_SERIES) throw new Error(`expected ${SERIES} series of ${PER_SERIES} problems, got ${list.length} and ${shown.length}`);
  if (attempts !== own) throw new Error(`${name}: the statuses count ${attempts} attempts, the participant made ${own}`);
  const statuses = {};
  for (const p of shown) statuses[p.status] = (statuses[p.status] ?? 0) + 1;
  const bytes = Number(res.headers.get('content-length') ?? 0);
  console.log(`  ${name.padEnd(8)} made ${fmt(own).padStart(5)} of them; the answer is ${fmt(bytes)} bytes, statuses ${JSON.stringify(statuses)}`);
}

/** autocannon at each of LEVELS connections, for each caller, after a warm-up. */
async function measure(judge, url, callers) {
  const autocannon = serverRequire('autocannon');
  const results = [];
  for (const [name, who] of callers) {
    await autocannon({ url, connections: Math.max(...LEVELS), duration: WARMUP, headers: who.auth });
    for (const connections of LEVELS) {
      const before = (await judge.request('cpu')).cpu;
      const r = await autocannon({ url, connections, duration: SECONDS, headers: who.auth });
      const after = (await judge.request('cpu')).cpu;
      const cpuUs = (after.user - before.user + after.system - before.system) / r.requests.total;
      results.push({ name, connections, r });
      console.log(
        `  ${name.padEnd(8)} ${String(connections).padStart(3)} conn: ${fmt(r.requests.average).padStart(6)} req/s   latency p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms   ` +
          `${fmt(r.requests.total)} requests, ${r.non2xx} non-2xx, ${r.errors + r.timeouts} errors, server CPU ${fmt(cpuUs)} µs/request ` +
          `${r.latency.p99 < TARGET_P99_MS ? 'PASS' : 'FAIL'}`,
      );
    }
  }
  return results;
}
