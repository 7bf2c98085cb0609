// The ranking of a large contest: 1,000 contestants × 12 problems, 50,000 submissions.
// Prints the time of the full standings (cold: first request after start, which loads the
// activity's submissions into memory; warm: later requests) and of the update after one new
// result (submissionChanged + get). Targets: full standings under 100 ms, the update under 5 ms.
//
// The judge runs in a child process (this same file, started with the argument `child`): the
// contest is written by it straight into its own SQLite file (the database is the judge
// process's alone), and the service calls are timed there, in process. The HTTP requests
// (the same standings, serialised and sent) are timed from here.
//
//   cd /work/main && pnpm build && node bench/ranking.mjs
//   env: BENCH_CONTESTANTS (1000), BENCH_PROBLEMS (12), BENCH_SUBMISSIONS (50000), BENCH_TYPE (icpc | points),
//        BENCH_ROUNDS (repetitions of each warm measurement, 30),
//        BENCH_DATABASE (a PostgreSQL cluster's URL: the judge keeps its data in a new database there; SQLite when unset),
//        BENCH_RESULT=1 (a last line `BENCH_RESULT {json}` of the figures, for engines.mjs), BENCH_LOG=1 (the judge's log on standard output)
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { adminToken, benchEngine, fmt, goalLine, json, loadAverage, startBenchApp, startChild } from './lib.mjs';

const CONTESTANTS = Number(process.env.BENCH_CONTESTANTS ?? 1000);
const PROBLEMS = Number(process.env.BENCH_PROBLEMS ?? 12);
const SUBMISSIONS = Number(process.env.BENCH_SUBMISSIONS ?? 50_000);
const TYPE = process.env.BENCH_TYPE ?? 'icpc';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const COLD_ROUNDS = 7;
const TARGET_FULL_MS = 100;
const TARGET_UPDATE_MS = 5;
/** The contest: five hours from START, frozen for the last hour. */
const START = Date.parse('2026-11-22T08:00:00.000Z');
const HOURS = 5;

// ---------------------------------------------------------------- statistics

function stats(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, median: q(0.5), p95: q(0.95), max: s[s.length - 1] };
}
const ms = (n) => `${fmt(n, 2)} ms`;
const verdict = (value, target) => (value < target ? 'PASS' : 'FAIL');

/** A small deterministic generator (mulberry32), so that every run judges the same contest. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------- the judge process

/** Starts the built judge, writes the contest into its database on `seed`, and times the ranking service in process. */
async function child() {
  // the clock stands still half an hour before the end, inside the freeze: contestants and managers see different standings
  const now = new Date(START + (HOURS - 0.5) * 3_600_000);
  const { app, cleanup } = await startBenchApp({}, { clock: { now: () => new Date(now) } });
  const data = await import('./engine-data.mjs');
  const ranking = app.services.ranking;
  let contest;
  const { submissions } = data.schema;
  const { eq } = data.drizzle;
  /** One result, as the judging flow writes it: the submission completed with AC. */
  const judgeOne = (id) => app.deps.tx.write((q) => q.update(submissions).set({ state: 'completed', verdict: 'AC', score: 1, maxScore: 1 }).where(eq(submissions.id, id)));

  process.on('message', async (m) => {
    if (m.cmd === 'seed') {
      contest = await seed(app, data, m.watcherId);
      process.send({ id: m.id, slug: contest.slug, submissions: contest.rows.length });
    } else if (m.cmd === 'measure') {
      process.send({ id: m.id, ...(await measure(ranking, app, judgeOne, contest)) });
    } else if (m.cmd === 'update') {
      // one new result, reported as the judging flow reports it
      const r = contest.pending.pop();
      await judgeOne(r.id);
      await ranking.submissionChanged(contest.activityId, r.userId, r.seriesProblemId);
      process.send({ id: m.id });
    } else if (m.cmd === 'stop') {
      await stop();
    }
  });
  // a driver that died leaves no judge and no data directory behind
  process.on('disconnect', () => void stop());
  async function stop() {
    await app.close();
    await cleanup();
    process.exit(0);
  }
  process.send({ ready: true, url: app.url });
}

/** Writes the contest in one write: accounts, their grants, one series of PROBLEMS problems, the submissions. */
async function seed(app, { schema, drizzle }, watcherId) {
  const rnd = prng(42);
  const created = new Date(START - 86_400_000).toISOString();
  const ids = { activityId: randomUUID(), seriesId: randomUUID() };
  const slug = 'bench-contest';
  const participantRole = (await app.deps.tx.read((q) => q.select({ id: schema.roles.id }).from(schema.roles).where(drizzle.eq(schema.roles.builtInKey, 'participant'))))[0].id;
  const { users, userRows, grantRows } = contestants(ids.activityId, watcherId, participantRole, created);
  const { assignments, problemRows, versionRows, assignmentRows } = problemsOf(ids, created);
  const rows = submissionRows(rnd, ids, users, assignments);
  await (await import('./engine-data.mjs')).insertAll(app, [
    [schema.activities, [contestRow(ids, slug, created)]],
    [schema.series, [seriesRow(ids, created)]],
    [schema.users, userRows],
    [schema.grants, grantRows],
    [schema.problems, problemRows],
    [schema.problemVersions, versionRows],
    [schema.seriesProblems, assignmentRows],
    [schema.submissions, rows],
  ]);
  const pending = rows.filter((r) => r.state === 'queued' && !r.excluded);
  return { activityId: ids.activityId, slug, rows, pending, users };
}

/** The activity: five hours from START. */
function contestRow({ activityId }, slug, created) {
  return { id: activityId, slug, slugKey: slug, name: 'Bench contest', createdAt: created, rankingType: TYPE, startDate: new Date(START).toISOString(), endDate: new Date(START + HOURS * 3_600_000).toISOString(), publishedAt: created };
}

/** Its one series, frozen for the last hour. */
function seriesRow({ activityId, seriesId }, created) {
  return {
    id: seriesId, activityId, slug: 'finals', slugKey: 'finals', name: 'Finals', order: 1,
    startDate: new Date(START).toISOString(), endDate: new Date(START + HOURS * 3_600_000).toISOString(), isOpen: false, openedAt: new Date(START).toISOString(),
    rankingFreezeAt: new Date(START + (HOURS - 1) * 3_600_000).toISOString(), rankingRevealAt: new Date(START + (HOURS + 2) * 3_600_000).toISOString(), createdAt: created,
  };
}

/** The watcher and CONTESTANTS - 1 more accounts, all participants of the activity. */
function contestants(activityId, watcherId, participantRole, created) {
  const users = [watcherId];
  const userRows = [];
  for (let i = 1; i < CONTESTANTS; i++) {
    const id = randomUUID();
    userRows.push({ id, username: `contestant-${i}`, usernameKey: `contestant-${i}`, firstName: `First${i % 97}`, lastName: `Last${i}`, createdAt: created });
    users.push(id);
  }
  const grantRows = users.map((userId) => ({ id: randomUUID(), userId, roleId: participantRole, activityId, createdAt: created }));
  return { users, userRows, grantRows };
}

/** PROBLEMS problems, one version each, assigned to the series as a, b, c, ... */
function problemsOf({ activityId, seriesId }, created) {
  const out = { assignments: [], problemRows: [], versionRows: [], assignmentRows: [] };
  for (let p = 0; p < PROBLEMS; p++) {
    const problemId = randomUUID();
    const versionId = randomUUID();
    const assignmentId = randomUUID();
    const letter = String.fromCharCode(97 + (p % 26)) + (p >= 26 ? p : '');
    out.problemRows.push({ id: problemId, slug: `bench-${letter}`, slugKey: `bench-${letter}`, name: `Problem ${letter.toUpperCase()}`, type: 'standard-io@1', createdAt: created });
    out.versionRows.push({ id: versionId, problemId, version: 1, createdAt: created });
    out.assignmentRows.push({ id: assignmentId, seriesId, activityId, problemId, slug: letter, slugKey: letter, order: p + 1, maxPoints: TYPE === 'points' ? 100 : null, createdAt: created });
    out.assignments.push({ assignmentId, versionId });
  }
  return out;
}

/**
 * SUBMISSIONS rows, by time, as the judge inserts them: each contestant has a skill, harder
 * problems are solved less, wrong answers come before right ones.
 */
function submissionRows(rnd, { activityId, seriesId }, users, assignments) {
  const skill = users.map(() => rnd());
  const verdicts = ['WA', 'WA', 'WA', 'TLE', 'RTE', 'MLE', 'CE'];
  const rows = [];
  for (let i = 0; i < SUBMISSIONS; i++) {
    const u = Math.floor(rnd() * users.length);
    const p = Math.floor(rnd() * PROBLEMS);
    const a = assignments[p];
    const t = START + rnd() * HOURS * 3_600_000;
    const pending = rnd() < 0.01;
    const accepted = !pending && rnd() < skill[u] * (1 - p / (PROBLEMS + 4)) * 0.5;
    const score = pending ? null : accepted ? 1 : TYPE === 'points' ? Math.round(rnd() * 10) / 10 : 0;
    rows.push({
      id: randomUUID(),
      activityId,
      seriesId,
      seriesProblemId: a.assignmentId,
      problemVersionId: a.versionId,
      userId: users[u],
      submittedAt: new Date(t).toISOString(),
      state: pending ? 'queued' : 'completed',
      verdict: pending ? null : accepted ? 'AC' : verdicts[Math.floor(rnd() * verdicts.length)],
      score,
      maxScore: pending ? null : 1,
      excluded: rnd() < 0.002,
    });
  }
  rows.sort((x, y) => (x.submittedAt < y.submittedAt ? -1 : x.submittedAt > y.submittedAt ? 1 : 0));
  return rows;
}

/** Times the service in process: the first standings (loading the submissions), warm ones, and updates. */
async function measure(ranking, app, judgeOne, contest) {
  const { schema, drizzle } = await import('./engine-data.mjs');
  const admin = (await app.deps.tx.read((q) => q.select({ id: schema.users.id }).from(schema.users).where(drizzle.eq(schema.users.username, 'admin'))))[0].id;
  const manager = { userId: admin, sessionId: 'bench', via: 'bearer' };
  const contestant = { userId: contest.users[0], sessionId: 'bench', via: 'bearer' };
  const time = async (fn) => {
    const t = performance.now();
    const out = await fn();
    return { ms: performance.now() - t, out };
  };

  // cold: nothing of the activity in memory; the very first also runs code not yet compiled
  ranking.invalidate();
  const cold = await time(() => ranking.get(manager, contest.slug));
  const coldFrozen = await time(() => ranking.get(contestant, contest.slug));
  const r = cold.out;
  const colds = [];
  for (let i = 0; i < COLD_ROUNDS; i++) {
    ranking.invalidate();
    colds.push((await time(() => ranking.get(manager, contest.slug))).ms);
  }
  // a new view of submissions already in memory (what a freeze or window edge, or invalidate(activityId), costs)
  const views = [];
  for (let i = 0; i < COLD_ROUNDS; i++) {
    ranking.invalidate(contest.activityId);
    views.push((await time(() => ranking.get(manager, contest.slug))).ms);
  }
  // the answer, checked against a plain recount: every contestant ranked, every problem listed, solved cells as in the data
  const solvedCells = new Set(contest.rows.filter((x) => x.state === 'completed' && x.verdict === 'AC' && !x.excluded).map((x) => `${x.userId}|${x.seriesProblemId}`));
  const solvedInRanking = r.rows.reduce((n, row) => n + row.solved, 0);
  if (r.rows.length !== CONTESTANTS || r.problems.length !== PROBLEMS) throw new Error(`expected ${CONTESTANTS} rows of ${PROBLEMS} problems, got ${r.rows.length} and ${r.problems.length}`);
  if (TYPE === 'icpc' && solvedInRanking !== solvedCells.size) throw new Error(`the ranking counts ${solvedInRanking} solved cells, the data has ${solvedCells.size}`);
  const frozenCells = coldFrozen.out.rows.reduce((n, row) => n + row.cells.reduce((k, c) => k + c.frozen, 0), 0);

  const warm = [];
  const warmFrozen = [];
  for (let i = 0; i < ROUNDS; i++) {
    warm.push((await time(() => ranking.get(manager, contest.slug))).ms);
    warmFrozen.push((await time(() => ranking.get(contestant, contest.slug))).ms);
  }

  // the update: one queued submission becomes AC; its cell is re-read and the standings asked again
  const update = [];
  const updateFrozen = [];
  for (let i = 0; i < ROUNDS && contest.pending.length; i++) {
    const s = contest.pending.pop();
    await judgeOne(s.id);
    update.push(
      (
        await time(async () => {
          await ranking.submissionChanged(contest.activityId, s.userId, s.seriesProblemId);
          return ranking.get(manager, contest.slug);
        })
      ).ms,
    );
    updateFrozen.push((await time(() => ranking.get(contestant, contest.slug))).ms);
  }
  const heap = process.memoryUsage().heapUsed;
  return {
    cold: cold.ms,
    coldFrozen: coldFrozen.ms,
    colds: stats(colds),
    views: stats(views),
    warm: stats(warm),
    warmFrozen: stats(warmFrozen),
    update: stats(update),
    updateFrozen: stats(updateFrozen),
    solved: solvedInRanking,
    frozenCells,
    frozen: coldFrozen.out.frozen,
    heapMiB: heap / 1048576,
  };
}

// ---------------------------------------------------------------- the driver

async function main() {
  // BENCH_PROFILE=<dir> writes a CPU profile of the judge process there (open it in Chrome DevTools)
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const judge = startChild('./ranking.mjs', ['child'], profile);
  const base = await judge.ready;
  const api = `${base}/api/v1`;
  const admin = { authorization: `Bearer ${await adminToken(base)}` };
  const post = (path, body, headers = admin) => json(`${api}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.body);

  // one contestant made through the API, so that there is a real bearer token for the participant's view
  const issued = await post('/users', { username: 'bench-watcher', firstName: 'Wat', lastName: 'Cher' });
  const { body: tokens } = await json(`${api}/identity/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: issued.username, password: issued.password }),
  });
  const watcher = { authorization: `Bearer ${tokens.accessToken}` };

  const started = Date.now();
  const seeded = await judge.request('seed', { watcherId: issued.userId });
  console.log(
    `GET /api/v1/activities/{slug}/ranking: ${TYPE}, ${fmt(CONTESTANTS)} contestants × ${PROBLEMS} problems, ${fmt(seeded.submissions)} submissions ` +
      `(written in ${fmt((Date.now() - started) / 1000, 1)} s); ${benchEngine()}, Node ${process.version}`,
  );

  const loadStart = await loadAverage();
  console.log(`  at the start: ${loadStart}`);
  const m = await judge.request('measure');
  console.log(`  answer checked: ${fmt(CONTESTANTS)} rows, ${fmt(m.solved)} solved cells; the contestants' view hides ${fmt(m.frozenCells)} submissions behind the freeze`);
  const line = (label, text) => console.log(`    ${label.padEnd(58)} ${text}`);
  const target = (value, goal, what) => `target < ${goal} ms: ${verdict(value, goal)}${what ? ` (${what})` : ''}`;
  console.log('  in process (RankingService.get, the answer as an object):');
  line('full standings, first request after start', `${ms(m.cold)}   (then the contestants' frozen view ${ms(m.coldFrozen)})`);
  line(`full standings, cold (nothing in memory), ${COLD_ROUNDS} runs`, `median ${ms(m.colds.median)}, max ${ms(m.colds.max)}   ${target(m.colds.median, TARGET_FULL_MS, 'median')}`);
  line(`full standings, submissions in memory, rows recomputed`, `median ${ms(m.views.median)}, max ${ms(m.views.max)}   ${target(m.views.max, TARGET_FULL_MS, 'max')}`);
  line('full standings, warm: manager / contestant', `median ${ms(m.warm.median)} / ${ms(m.warmFrozen.median)}, p95 ${ms(m.warm.p95)} / ${ms(m.warmFrozen.p95)}`);
  line(`one new result: submissionChanged + get, ${m.update.n} runs`, `median ${ms(m.update.median)}, p95 ${ms(m.update.p95)}, max ${ms(m.update.max)}   ${target(m.update.p95, TARGET_UPDATE_MS, 'p95')}`);
  line('  then the contestants\' view of it', `median ${ms(m.updateFrozen.median)}, p95 ${ms(m.updateFrozen.p95)}`);
  line('heap in use afterwards', `${fmt(m.heapMiB, 1)} MiB`);

  // over HTTP: the same standings, serialised and sent, read here
  const url = `${api}/activities/${seeded.slug}/ranking`;
  async function timed(headers) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    const text = await res.text();
    if (!res.ok) throw new Error(`GET ranking: ${res.status} ${text.slice(0, 200)}`);
    return { ms: performance.now() - t, bytes: Buffer.byteLength(text) };
  }
  const http = { manager: [], contestant: [], update: [] };
  let bytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const a = await timed(admin);
    http.manager.push(a.ms);
    bytes = a.bytes;
    http.contestant.push((await timed(watcher)).ms);
  }
  for (let i = 0; i < Math.min(ROUNDS, 10); i++) {
    await judge.request('update');
    http.update.push((await timed(admin)).ms);
  }
  const hm = stats(http.manager);
  const hc = stats(http.contestant);
  const hu = stats(http.update);
  console.log(`  over HTTP (GET with a bearer token; ${fmt(bytes / 1024)} KiB of JSON, read by the client):`);
  line('full standings, warm: manager / contestant', `median ${ms(hm.median)} / ${ms(hc.median)}, p95 ${ms(hm.p95)} / ${ms(hc.p95)}   ${target(Math.max(hm.p95, hc.p95), TARGET_FULL_MS, 'p95')}`);
  line('right after one new result', `median ${ms(hu.median)}, p95 ${ms(hu.p95)}`);
  console.log(goalLine('standings cold load (median)', m.colds.median, TARGET_FULL_MS, 'ms', true, 1));
  console.log(goalLine('standings update after one result (p95)', m.update.p95, TARGET_UPDATE_MS, 'ms', true, 2));
  const loadEnd = await loadAverage();
  console.log(`  at the end: ${loadEnd}`);
  if (process.env.BENCH_RESULT === '1') result(m, hm, hu, loadStart, loadEnd);
  await judge.stop();
  process.exit(0);
}

/** The figures as one line of JSON, for engines.mjs, which runs this script on each engine and prints them side by side. */
function result(m, hm, hu, loadStart, loadEnd) {
  const figures = { coldMedian: m.colds.median, coldMax: m.colds.max, updateMedian: m.update.median, updateP95: m.update.p95, warmMedian: m.warm.median, httpWarmMedian: hm.median, httpUpdateMedian: hu.median };
  console.log(`BENCH_RESULT ${JSON.stringify({ ...figures, loadStart, loadEnd })}`);
}

// last, so that every constant above is initialised before either side runs
if (process.argv[2] === 'child') await child();
else await main();
