// The activity dashboard of a busy contest: 10,000 submissions in the activity (and as many in
// another, which it must not read), a queue of 100, 200 questions and 100 printouts. Prints the
// time of GET /manager/activities/{a}/dashboard in process (the service) and over HTTP, against
// the same for an empty activity, and SQLite's plan of each query. Target: under 20 ms a request,
// since the page refetches it on every event of the activity (at most once a second) and every 5 s.
//
//   cd /work/main && pnpm build && node bench/dashboard.mjs
//   env: BENCH_SUBMISSIONS (10000), BENCH_ROUNDS (50), BENCH_COVERING (1: with a covering index for the outcomes)
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { adminToken, fmt, goalLine, json, loadAverage, startBenchApp } from './lib.mjs';

const SUBMISSIONS = Number(process.env.BENCH_SUBMISSIONS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const TARGET_MS = 20;
const VERDICTS = ['AC', 'WA', 'WA', 'TLE', 'RTE', 'CE', 'AC', 'WA', 'MLE', 'JE'];

const { app, dataDir } = await startBenchApp();
const sqlite = app.deps.sqlite;
const now = Date.now();
const created = new Date(now - 86_400_000).toISOString();

/** An activity with one series and problem, `n` submissions over the last three hours, the newest `queued` of them waiting. */
function seed(slug, n, queued) {
  const ids = { activity: randomUUID(), series: randomUUID(), problem: randomUUID(), version: randomUUID(), assignment: randomUUID() };
  sqlite.prepare('INSERT INTO activities (id, slug, slug_key, name, created_at, published_at) VALUES (?, ?, ?, ?, ?, ?)').run(ids.activity, slug, slug, slug, created, created);
  sqlite.prepare(`INSERT INTO series (id, activity_id, slug, slug_key, name, "order", is_open, created_at) VALUES (?, ?, 'main', 'main', 'Main', 1, 1, ?)`).run(ids.series, ids.activity, created);
  sqlite.prepare(`INSERT INTO problems (id, slug, slug_key, name, type, created_at) VALUES (?, ?, ?, 'Sum', 'standard-io@1', ?)`).run(ids.problem, `${slug}-sum`, `${slug}-sum`, created);
  sqlite.prepare('INSERT INTO problem_versions (id, problem_id, version, created_at) VALUES (?, ?, 1, ?)').run(ids.version, ids.problem, created);
  sqlite
    .prepare(`INSERT INTO series_problems (id, series_id, activity_id, problem_id, slug, slug_key, "order", created_at) VALUES (?, ?, ?, ?, 'sum', 'sum', 1, ?)`)
    .run(ids.assignment, ids.series, ids.activity, ids.problem, created);
  const users = [];
  const user = sqlite.prepare('INSERT INTO users (id, username, username_key, created_at) VALUES (?, ?, ?, ?)');
  for (let i = 0; i < 200; i++) {
    const id = randomUUID();
    user.run(id, `${slug}-u${i}`, `${slug}-u${i}`, created);
    users.push(id);
  }
  const submission = sqlite.prepare(
    `INSERT INTO submissions (id, activity_id, series_id, series_problem_id, problem_version_id, user_id, submitted_at, state, verdict) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const attempt = sqlite.prepare(
    `INSERT INTO attempts (id, submission_id, attempt, state, priority, problem_version_id, problem_type, created_at, verdict) VALUES (?, ?, 1, ?, 0, ?, 'standard-io@1', ?, ?)`,
  );
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    const at = new Date(now - 3 * 3_600_000 + Math.floor((i / n) * 3 * 3_600_000)).toISOString();
    const waiting = i >= n - queued;
    const verdict = waiting ? null : VERDICTS[i % VERDICTS.length];
    submission.run(id, ids.activity, ids.series, ids.assignment, ids.version, users[i % users.length], at, waiting ? 'queued' : 'completed', verdict);
    attempt.run(randomUUID(), id, waiting ? 'queued' : 'completed', ids.version, at, verdict);
  }
  const question = sqlite.prepare(`INSERT INTO questions (id, activity_id, kind, topic, body, author_user_id, created_at) VALUES (?, ?, 'question', 'Q', 'Why?', ?, ?)`);
  for (let i = 0; i < 200; i++) question.run(randomUUID(), ids.activity, users[i], created);
  const printout = sqlite.prepare(`INSERT INTO printouts (id, activity_id, user_id, title, file_name, size_bytes, sha256, state, requested_at) VALUES (?, ?, ?, 't', 'a.c', 1, 'x', ?, ?)`);
  for (let i = 0; i < 100; i++) printout.run(randomUUID(), ids.activity, users[i], i % 3 ? 'resolved' : 'queued', created);
  return ids;
}

sqlite.transaction(() => {
  seed('busy', SUBMISSIONS, 100);
  seed('other', SUBMISSIONS, 100);
  seed('empty', 0, 0);
})();
// BENCH_COVERING=1: with the index a migration could add, so that the outcomes never touch the table
if (process.env.BENCH_COVERING === '1') sqlite.exec('CREATE INDEX submissions_activity_outcome ON submissions (activity_id, state, verdict)');
sqlite.exec('ANALYZE');

const adminId = sqlite.prepare(`SELECT id FROM users WHERE username = 'admin'`).get().id;
const actor = { userId: adminId, sessionId: 'bench', via: 'bearer' };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function inProcess(slug) {
  const times = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    app.services.dashboard.get(actor, slug);
    times.push(performance.now() - t0);
  }
  return median(times);
}

async function overHttp(url, token) {
  const times = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    await json(url, { headers: { authorization: `Bearer ${token}` } });
    times.push(performance.now() - t0);
  }
  return median(times);
}

console.log(`activity dashboard: ${fmt(SUBMISSIONS)} submissions in the activity and as many in another, median of ${ROUNDS} requests, Node ${process.version}`);
console.log(`at the start: ${await loadAverage()}`);
const d = app.services.dashboard.get(actor, 'busy');
console.log(`figures: queue ${d.queue.queued}, last 10 minutes ${d.submissions.lastTenMinutes}, ${d.verdicts.length} verdicts, ${d.questions.unanswered} questions, ${d.printouts.queued} printouts`);
const token = await adminToken(app.url);
const busy = inProcess('busy');
const empty = inProcess('empty');
const busyHttp = await overHttp(`${app.url}/api/v1/manager/activities/busy/dashboard`, token);
const emptyHttp = await overHttp(`${app.url}/api/v1/manager/activities/empty/dashboard`, token);
console.log(`  service  busy ${fmt(busy, 2)} ms   empty ${fmt(empty, 2)} ms   ratio ${fmt(busy / Math.max(empty, 0.001), 1)}`);
console.log(`  HTTP     busy ${fmt(busyHttp, 2)} ms   empty ${fmt(emptyHttp, 2)} ms   ratio ${fmt(busyHttp / Math.max(emptyHttp, 0.001), 1)}`);

// how SQLite reads each figure: every one through an index (no SCAN of a whole table)
const plans = {
  outcomes: 'SELECT state, verdict, count(*) AS n FROM submissions WHERE activity_id = ? GROUP BY state, verdict',
  oldest: `SELECT a.submission_id AS id, a.created_at AS at FROM attempts a CROSS JOIN submissions s ON s.id = a.submission_id WHERE a.state = 'queued' AND s.activity_id = ? ORDER BY a.created_at LIMIT 1`,
  perMinute: `SELECT CAST((julianday(?) - julianday(submitted_at)) * 1440 AS INTEGER) AS ago, count(*) AS n FROM submissions WHERE activity_id = ? AND submitted_at > ? AND submitted_at <= ? GROUP BY ago`,
  questions: "SELECT count(*) AS n FROM questions WHERE activity_id = ? AND kind = 'question' AND answered_at IS NULL",
  printouts: "SELECT state, count(*) AS n FROM printouts WHERE activity_id = ? AND state IN ('queued', 'claimed') GROUP BY state",
};
const busyId = sqlite.prepare(`SELECT id FROM activities WHERE slug = 'busy'`).get().id;
const nowIso = new Date().toISOString();
const argsOf = { outcomes: [busyId], oldest: [busyId], perMinute: [nowIso, busyId, new Date(Date.now() - 600_000).toISOString(), nowIso], questions: [busyId], printouts: [busyId] };
for (const [name, sql] of Object.entries(plans)) {
  const plan = sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...argsOf[name]).map((r) => r.detail);
  const st = sqlite.prepare(sql);
  const times = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = performance.now();
    st.all(...argsOf[name]);
    times.push(performance.now() - t0);
  }
  console.log(`  ${name.padEnd(9)} ${fmt(median(times), 2).padStart(6)} ms   ${plan.join(' | ')}`);
}
console.log(goalLine('dashboard of a 10,000-submission activity over HTTP', busyHttp, TARGET_MS, 'ms', true, 2));
console.log(`at the end: ${await loadAverage()}`);
await app.close();
rmSync(dataDir, { recursive: true, force: true });
