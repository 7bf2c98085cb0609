// The CLICS event feed of a big contest: BENCH_TEAMS (300) teams × BENCH_PROBLEMS (12) problems,
// BENCH_SUBMISSIONS (20,000) submissions over five hours, every one judged with a `details`
// attachment of five tests (so runs are in the feed too), a freeze at four hours, the contest over.
// Prints (1) the writer's first full refresh of the contest's event table (no target), then the time
// from `GET /api/clics/contests/{slug}/event-feed` (from token 0) until every existing event has
// arrived, as admin (target under 2 s) and as the public; (2) with an admin feed open and caught up,
// the time from a runner's report of a new result until its `judgements` line arrives (target under
// 100 ms, median and max of BENCH_ROUNDS).
//
// The judge runs in a child process (this same file, started with the argument `child`): the
// contest is written by it straight into its own database (the same rows the judging flow leaves:
// submission, its source file, attempt 1 completed with its `details` file), and its writer's
// refreshes are timed there. The feeds are read over HTTP from here, and the runner (the SDK's
// RunnerClient, built) claims and reports from here too.
//
//   cd /work/main && npx tsc -b packages/contract packages/problem-package packages/sdk packages/server && node bench/clics-feed.mjs
//   env: BENCH_TEAMS (300), BENCH_PROBLEMS (12), BENCH_SUBMISSIONS (20000), BENCH_ROUNDS (10: new judgements timed),
//        BENCH_FEED_ROUNDS (3: full feeds read per audience),
//        BENCH_DATABASE (a PostgreSQL cluster's URL: the judge keeps its data in a new database there; SQLite when unset),
//        BENCH_PROFILE (a directory: V8 CPU profiles of the first whole refresh and of one with nothing new, refresh-first/refresh-again.cpuprofile), BENCH_LOG=1 (the judge's log on standard output)
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ADMIN_PASSWORD, adminToken, benchEngine, fmt, goalLine, loadAverage, startBenchApp, startChild } from './lib.mjs';

const TEAMS = Number(process.env.BENCH_TEAMS ?? 300);
const PROBLEMS = Number(process.env.BENCH_PROBLEMS ?? 12);
const SUBMISSIONS = Number(process.env.BENCH_SUBMISSIONS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const FEED_ROUNDS = Number(process.env.BENCH_FEED_ROUNDS ?? 3);
const TARGET_FULL_MS = 2000;
const TARGET_JUDGEMENT_MS = 100;
const PROBLEM_TYPE = 'standard-io@1';
const HOURS = 5;
/** The contest started seven hours ago (to the minute) and ended two hours ago: no boundary is ahead, nothing depends on the clock. */
const START = Math.floor((Date.now() - 7 * 3_600_000) / 60_000) * 60_000;
const LANGUAGES = ['cpp', 'cpp', 'python3', 'java', 'c'];
const VERDICTS = ['WA', 'WA', 'WA', 'TLE', 'RTE', 'MLE', 'CE'];
/** The one `details` attachment every attempt names (a blob never changes; the feed's reader caches it by hash). */
const DETAILS = JSON.stringify({ verdict: 'AC', tests: [12, 15, 9, 31, 22].map((cpuMs) => ({ verdict: 'AC', cpuMs })) });

// ---------------------------------------------------------------- the judge process

async function child() {
  const { app, cleanup } = await startBenchApp();
  const data = await import('./engine-data.mjs');
  const log = app.services.clicsFeed.log;
  // every refresh the writer makes, timed (it brings the whole contest's views up to date each time)
  const refreshes = [];
  const bring = log.bringUpToDate.bind(log);
  // (every argument passed on: a writer that brings some submissions alone up to date is told which)
  log.bringUpToDate = async (...args) => {
    const t0 = performance.now();
    try {
      return await bring(...args);
    } finally {
      refreshes.push({ at: performance.timeOrigin + t0, ms: performance.now() - t0, some: args[1] ? [...args[1]].length : undefined });
    }
  };
  let contest;
  process.on('message', async (m) => {
    try {
      if (m.cmd === 'seed') {
        const t0 = performance.now();
        contest = await seed(app, data);
        process.send({ id: m.id, slug: contest.slug, activityId: contest.activityId, rows: contest.rows, ms: performance.now() - t0 });
      } else if (m.cmd === 'refresh') {
        // the longest the judge's event loop was held meanwhile: no request of anybody's is answered then
        // (a 5 ms timer's longest gap)
        let last = performance.now();
        let blockedMs = 0;
        const tick = setInterval(() => {
          const now = performance.now();
          blockedMs = Math.max(blockedMs, now - last);
          last = now;
        }, 5);
        const profiler = m.profile ? await profileTo(m.profile) : undefined;
        const t0 = performance.now();
        await log.refresh(contest.activityId);
        const ms = performance.now() - t0;
        await profiler?.stop();
        clearInterval(tick);
        blockedMs = Math.max(blockedMs, performance.now() - last);
        process.send({ id: m.id, ms, blockedMs });
      } else if (m.cmd === 'cpu') {
        process.send({ id: m.id, cpu: process.cpuUsage() });
      } else if (m.cmd === 'counts') {
        process.send({ id: m.id, counts: await eventCounts(app, data, contest.activityId) });
      } else if (m.cmd === 'queue') {
        process.send({ id: m.id, ...(await queueOne(app, data, contest, m.n)) });
      } else if (m.cmd === 'refreshes') {
        process.send({ id: m.id, refreshes: refreshes.splice(0) });
      } else if (m.cmd === 'stop') {
        await stop();
      }
    } catch (err) {
      console.error(err);
      process.send({ id: m.id, error: String(err?.stack ?? err) });
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

/** BENCH_PROFILE: a V8 CPU profile of this process from now until stop(), written to `path` (for one refresh alone). */
async function profileTo(path) {
  const { Session } = await import('node:inspector');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (err, r) => (err ? reject(err) : resolve(r))));
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    async stop() {
      const { profile } = await post('Profiler.stop');
      writeFileSync(path, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/** A small deterministic generator (mulberry32), so that every run writes the same contest. */
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

const isoAt = (ms) => new Date(ms).toISOString();

/** Writes the contest in one write: teams and their grants, the series and its problems, the judged submissions. */
async function seed(app, { schema, drizzle }) {
  const created = isoAt(START - 86_400_000);
  const ids = { activityId: randomUUID(), seriesId: randomUUID() };
  const slug = 'bench-clics';
  const participantRole = (await app.deps.tx.read((q) => q.select({ id: schema.roles.id }).from(schema.roles).where(drizzle.eq(schema.roles.builtInKey, 'participant'))))[0].id;
  // the two blobs every submission and attempt name: one source, one details document
  const blobs = app.services.clicsServices.blobs;
  const source = { id: randomUUID(), sha256: await blobs.put(Buffer.from('int main() { return 0; }\n')), sizeBytes: 25, name: 'main.cpp', mimeType: 'text/plain', createdAt: created };
  const details = { id: randomUUID(), sha256: await blobs.put(Buffer.from(DETAILS)), sizeBytes: DETAILS.length, name: 'details.json', mimeType: 'application/json', createdAt: created };
  const teams = teamRows(ids.activityId, participantRole, created);
  const problems = problemRows(ids, created);
  const judged = submissionRows(prng(42), ids, teams.users, problems.assignments, { source, details });
  await (await import('./engine-data.mjs')).insertAll(app, [
    [schema.activities, [contestRow(ids, slug, created)]],
    [schema.series, [seriesRow(ids, created)]],
    [schema.users, teams.userRows],
    [schema.grants, teams.grantRows],
    [schema.problems, problems.problemRows],
    [schema.problemVersions, problems.versionRows],
    [schema.seriesProblems, problems.assignmentRows],
    [schema.files, [source, details]],
    [schema.submissions, judged.submissions],
    [schema.submissionFiles, judged.files],
    [schema.attempts, judged.attempts],
    [schema.attemptFiles, judged.attemptFiles],
  ]);
  return { ...ids, slug, users: teams.users, assignments: problems.assignments, source, rows: judged.submissions.length };
}

/** The activity: an ICPC contest of five hours from START, published, its scoreboard public (the anonymous feed). */
function contestRow({ activityId }, slug, created) {
  return {
    id: activityId, slug, slugKey: slug, name: 'Bench CLICS contest', createdAt: created, type: 'contest@1', rankingType: 'icpc',
    startDate: isoAt(START), endDate: isoAt(START + HOURS * 3_600_000), publishedAt: created, publicScoreboard: true,
  };
}

/** Its one series, frozen for the last hour and not thawed yet. */
function seriesRow({ activityId, seriesId }, created) {
  return {
    id: seriesId, activityId, slug: 'finals', slugKey: 'finals', name: 'Finals', order: 1, startDate: isoAt(START), endDate: isoAt(START + HOURS * 3_600_000),
    isOpen: false, openedAt: isoAt(START), rankingFreezeAt: isoAt(START + (HOURS - 1) * 3_600_000), createdAt: created,
  };
}

/** TEAMS accounts, each a participant of the activity, in 10 organisations and two groups (their tags). */
function teamRows(activityId, participantRole, created) {
  const users = [];
  const userRows = [];
  for (let i = 0; i < TEAMS; i++) {
    const id = randomUUID();
    const tags = [`org:School ${i % 10}`, i % 2 ? 'Seniors' : 'Juniors'];
    userRows.push({ id, username: `team-${i}`, usernameKey: `team-${i}`, firstName: 'Team', lastName: `${i}`, tags, createdAt: created });
    users.push(id);
  }
  const grantRows = users.map((userId) => ({ id: randomUUID(), userId, roleId: participantRole, activityId, createdAt: created }));
  return { users, userRows, grantRows };
}

/** PROBLEMS problems, one version each, assigned to the series as a, b, c, ... */
function problemRows({ activityId, seriesId }, created) {
  const out = { assignments: [], problemRows: [], versionRows: [], assignmentRows: [] };
  for (let p = 0; p < PROBLEMS; p++) {
    const problemId = randomUUID();
    const versionId = randomUUID();
    const assignmentId = randomUUID();
    const letter = String.fromCharCode(97 + (p % 26)) + (p >= 26 ? p : '');
    out.problemRows.push({ id: problemId, slug: `clics-${letter}`, slugKey: `clics-${letter}`, name: `Problem ${letter.toUpperCase()}`, type: PROBLEM_TYPE, createdAt: created });
    out.versionRows.push({ id: versionId, problemId, version: 1, createdAt: created });
    out.assignmentRows.push({ id: assignmentId, seriesId, activityId, problemId, slug: letter, slugKey: letter, order: p + 1, createdAt: created });
    out.assignments.push({ assignmentId, versionId });
  }
  return out;
}

/**
 * SUBMISSIONS judged submissions spread over the five hours, as the judging flow leaves them: the
 * submission completed with its verdict, its source file, attempt 1 claimed 2 s and finished 5 s after
 * it was submitted, and the attempt's `details` attachment.
 */
function submissionRows(rnd, { activityId, seriesId }, users, assignments, { source, details }) {
  const skill = users.map(() => rnd());
  const out = { submissions: [], files: [], attempts: [], attemptFiles: [] };
  const times = Array.from({ length: SUBMISSIONS }, () => START + Math.floor(rnd() * (HOURS * 3_600_000 - 10_000))).sort((x, y) => x - y);
  for (const t of times) {
    const u = Math.floor(rnd() * users.length);
    const p = Math.floor(rnd() * assignments.length);
    const { assignmentId, versionId } = assignments[p];
    const accepted = rnd() < skill[u] * (1 - p / (assignments.length + 4)) * 0.5;
    const verdict = accepted ? 'AC' : VERDICTS[Math.floor(rnd() * VERDICTS.length)];
    const language = LANGUAGES[u % LANGUAGES.length];
    const id = randomUUID();
    const attemptId = randomUUID();
    out.submissions.push({
      id, activityId, seriesId, seriesProblemId: assignmentId, problemVersionId: versionId, userId: users[u], submittedAt: isoAt(t),
      props: { language }, state: 'completed', verdict, score: accepted ? 1 : 0, maxScore: 1, attempts: 1, ipAddress: '127.0.0.1',
    });
    out.files.push({ submissionId: id, name: 'source', fileName: source.name, language, fileId: source.id });
    out.attempts.push({
      id: attemptId, submissionId: id, attempt: 1, state: 'completed', priority: 0, problemVersionId: versionId, problemType: PROBLEM_TYPE,
      createdAt: isoAt(t), claimedAt: isoAt(t + 2000), finishedAt: isoAt(t + 5000), runnerName: 'bench-runner', verdict, score: accepted ? 1 : 0, maxScore: 1,
    });
    out.attemptFiles.push({ attemptId, name: 'details', fileId: details.id });
  }
  return out;
}

/** One submission queued as submit leaves it (its source, attempt 1 queued), made three hours into the contest (before the freeze: every audience is told of it). */
async function queueOne(app, { schema }, contest, n) {
  const id = randomUUID();
  const attemptId = randomUUID();
  const { assignmentId, versionId } = contest.assignments[n % contest.assignments.length];
  const at = isoAt(START + 3 * 3_600_000 + n * 1000);
  await (await import('./engine-data.mjs')).insertAll(app, [
    [schema.submissions, [{ id, activityId: contest.activityId, seriesId: contest.seriesId, seriesProblemId: assignmentId, problemVersionId: versionId, userId: contest.users[n % contest.users.length], submittedAt: at, props: { language: 'cpp' }, state: 'queued', attempts: 1 }]],
    [schema.submissionFiles, [{ submissionId: id, name: 'source', fileName: contest.source.name, language: 'cpp', fileId: contest.source.id }]],
    [schema.attempts, [{ id: attemptId, submissionId: id, attempt: 1, state: 'queued', priority: 0, problemVersionId: versionId, problemType: PROBLEM_TYPE, createdAt: at }]],
  ]);
  return { submissionId: id, attemptId };
}

/** The contest's event rows: all, the admin's, the public's, and those of the teams. */
async function eventCounts(app, { schema, drizzle }, activityId) {
  const { clicsEvents } = schema;
  const { eq, sql } = drizzle;
  const rows = await app.deps.tx.read((q) =>
    q
      .select({ audience: sql`CASE WHEN ${clicsEvents.audience} IN ('admin', 'public') THEN ${clicsEvents.audience} ELSE 'teams' END`, n: sql`count(*)`.mapWith(Number), bytes: sql`sum(length(${clicsEvents.data}))`.mapWith(Number) })
      .from(clicsEvents)
      .where(eq(clicsEvents.activityId, activityId))
      .groupBy(sql`1`),
  );
  const out = { admin: 0, public: 0, teams: 0, all: 0, bytes: 0 };
  for (const r of rows) {
    out[r.audience] = r.n;
    out.all += r.n;
    out.bytes += r.bytes ?? 0;
  }
  return out;
}

// ---------------------------------------------------------------- the feed readers

/**
 * An open event feed read as it comes: its lines (keep-alive newlines not counted), the bytes, and
 * a wait for a line that satisfies a test. `parse`: keep each line's JSON (the judgement rounds);
 * otherwise lines are only counted (the full feed, where parsing here would be timed too).
 */
async function openFeed(url, token, { parse = false } = {}) {
  const abort = new AbortController();
  const sent = performance.now();
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: abort.signal });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  const feed = { sent, headersAt: performance.now(), lines: 0, bytes: 0, parsed: [], waiters: new Set(), close: () => abort.abort() };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        feed.bytes += value.byteLength;
        const text = rest + decoder.decode(value, { stream: true });
        const parts = text.split('\n');
        rest = parts.pop();
        const at = performance.now();
        for (const l of parts) {
          if (!l) continue;
          feed.lines++;
          if (parse) feed.parsed.push({ at, line: JSON.parse(l) });
        }
        for (const w of [...feed.waiters]) w();
      }
    } catch (err) {
      if (err.name !== 'AbortError') console.error('feed reading failed:', err);
    }
  })();
  /** Resolves with the time the test first held (checked on every chunk), or rejects after `ms`. */
  feed.until = (test, ms = 60_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const t = test(feed);
        if (t === undefined || t === false) return false;
        feed.waiters.delete(check);
        clearTimeout(timer);
        resolve(t === true ? performance.now() : t);
        return true;
      };
      const timer = setTimeout(() => (feed.waiters.delete(check), reject(new Error(`feed: not seen within ${ms} ms (${feed.lines} lines so far)`))), ms);
      if (!check()) feed.waiters.add(check);
    });
  return feed;
}

/** Reads the contest's whole feed from token 0, FEED_ROUNDS times: until `expected` lines arrived. */
async function fullFeeds(url, token, expected, cpu) {
  const rounds = [];
  for (let i = 0; i < FEED_ROUNDS; i++) {
    const before = (await cpu()).cpu;
    const feed = await openFeed(url, token);
    const done = await feed.until((f) => f.lines >= expected);
    const after = (await cpu()).cpu;
    const judgeMs = (after.user - before.user + after.system - before.system) / 1000;
    rounds.push({ ms: done - feed.sent, headersMs: feed.headersAt - feed.sent, lines: feed.lines, bytes: feed.bytes, judgeMs });
    feed.close();
  }
  return rounds;
}

// ---------------------------------------------------------------- the runner

/** One runner, registered, approved by the administrator and signed in. */
async function runner(base) {
  const { JudgeClient, RunnerClient, generateRunnerKey, ops } = await import('../packages/sdk/dist/index.js');
  const admin = new JudgeClient({ baseUrl: base });
  await admin.login('admin', ADMIN_PASSWORD);
  const r = new RunnerClient({ baseUrl: base, key: generateRunnerKey(), userAgent: 'bench-runner' });
  const reg = await r.register({ name: 'bench-clics-runner', problemTypes: [PROBLEM_TYPE], version: 'bench' });
  await admin.call(ops.approveRunner, { params: { id: reg.runnerId } });
  await r.authenticate();
  return r;
}

const isJudgement = (attemptId, done) => (f) => {
  const hit = f.parsed.find((p) => p.line.type === 'judgements' && p.line.id === attemptId && (p.line.data?.judgement_type_id != null) === done);
  return hit ? hit.at : undefined;
};

/**
 * ROUNDS new results with the admin feed open: a submission queued, claimed (the feed tells of it),
 * then the runner's report (with its details file) timed until the judgement's completed line arrives.
 */
async function newJudgements(judge, base, token, expected) {
  const r = await runner(base);
  const feed = await openFeed(`${base}/api/clics/contests/${judge.slug}/event-feed`, token, { parse: true });
  await feed.until((f) => f.lines >= expected);
  const out = [];
  for (let n = 0; n < ROUNDS; n++) {
    const { attemptId } = await judge.request('queue', { n });
    const job = await r.claim({ leaseSeconds: 300 });
    if (job?.jobId !== attemptId) throw new Error(`claimed ${job?.jobId}, queued ${attemptId}`);
    await feed.until(isJudgement(attemptId, false), 120_000);
    const file = await r.upload('details.json', DETAILS, 'application/json');
    // the writer's refreshes of the claim are over: the next ones are the report's
    await new Promise((resolve) => setTimeout(resolve, 200));
    await judge.request('refreshes');
    const t0 = performance.now();
    await r.report(job, { verdict: 'AC', score: 1, maxScore: 1, runnerVersion: 'bench', files: [{ name: 'details', fileId: file.id }] });
    const reported = performance.now();
    const arrived = await feed.until(isJudgement(attemptId, true), 120_000);
    const { refreshes } = await judge.request('refreshes');
    const origin = performance.timeOrigin + t0;
    out.push({ ms: arrived - t0, reportMs: reported - t0, refreshes: refreshes.map((x) => ({ startMs: x.at - origin, ms: x.ms, some: x.some })) });
  }
  feed.close();
  return out;
}

// ---------------------------------------------------------------- the driver

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs) => Math.max(...xs);
const mb = (bytes) => `${fmt(bytes / 1_048_576, 1)} MB`;

async function main() {
  const judge = startChild('./clics-feed.mjs', ['child']);
  const base = await judge.ready;
  const request = judge.request;
  const ask = async (cmd, extra) => {
    const m = await request(cmd, extra);
    if (m.error) throw new Error(`judge: ${m.error}`);
    return m;
  };
  try {
    console.log(`CLICS event feed: ${fmt(TEAMS)} teams × ${PROBLEMS} problems, ${fmt(SUBMISSIONS)} judged submissions (5 runs each) over ${HOURS} h, frozen for the last hour, ended; ${benchEngine()}, Node ${process.version}`);
    const loadStart = await loadAverage();
    console.log(`at the start: ${loadStart}`);
    const seeded = await ask('seed');
    console.log(`  contest written in ${fmt(seeded.ms / 1000, 1)} s (${fmt(seeded.rows)} submissions)`);

    const profileDir = process.env.BENCH_PROFILE;
    const first = await ask('refresh', profileDir ? { profile: `${profileDir}/refresh-first.cpuprofile` } : {});
    const { counts } = await ask('counts');
    console.log(
      `  first full refresh (the writer filling the event table from nothing): ${fmt(first.ms)} ms, the event loop held up to ${fmt(first.blockedMs)} ms at a time; ` +
        `${fmt(counts.all)} rows (admin ${fmt(counts.admin)}, public ${fmt(counts.public)}, teams ${fmt(counts.teams)}), ${mb(counts.bytes)} of object JSON`,
    );
    const again = [];
    for (let i = 0; i < 3; i++) again.push(await ask('refresh', profileDir && i === 2 ? { profile: `${profileDir}/refresh-again.cpuprofile` } : {}));
    console.log(`  a whole refresh with nothing new: ${again.map((x) => `${fmt(x.ms)} ms (loop held up to ${fmt(x.blockedMs)} ms)`).join(', ')}`);

    const token = await adminToken(base);
    const url = `${base}/api/clics/contests/${seeded.slug}/event-feed`;
    await ask('refreshes');
    const cpu = () => ask('cpu');
    const adminRounds = await fullFeeds(url, token, counts.admin, cpu);
    const adminRefreshes = (await ask('refreshes')).refreshes;
    const publicRounds = await fullFeeds(url, undefined, counts.public, cpu);
    const publicRefreshes = (await ask('refreshes')).refreshes;
    for (const [who, rounds, refreshes] of [['admin', adminRounds, adminRefreshes], ['public', publicRounds, publicRefreshes]]) {
      const last = rounds.at(-1);
      console.log(`    the writer's refreshes meanwhile: ${refreshes.map((x) => `${fmt(x.ms)} ms${x.some === undefined ? '' : ` (${x.some} submissions)`}`).join(', ') || 'none'}`);
      console.log(
        `  feed from token 0 as ${who.padEnd(6)}: ${fmt(last.lines)} events, ${mb(last.bytes)}; until all arrived ${rounds.map((x) => `${fmt(x.ms)} ms`).join(', ')} ` +
          `(headers after ${rounds.map((x) => fmt(x.headersMs)).join(', ')} ms; the judge's CPU ${rounds.map((x) => fmt(x.judgeMs)).join(', ')} ms)`,
      );
    }

    const judged = await newJudgements({ slug: seeded.slug, request: ask }, base, token, counts.admin);
    const times = judged.map((x) => x.ms);
    console.log(`  new judgement → its line on the open admin feed, ${ROUNDS} rounds: median ${fmt(median(times), 1)} ms, max ${fmt(max(times), 1)} ms (${times.map((x) => fmt(x)).join(', ')})`);
    console.log(`    the report call itself: median ${fmt(median(judged.map((x) => x.reportMs)), 1)} ms`);
    const rs = judged.flatMap((x) => x.refreshes);
    if (rs.length) {
      console.log(
        `    the writer's refreshes after a report: ${fmt(rs.length / judged.length, 1)} a round (${rs.filter((x) => x.some === undefined).length} of the whole contest, ${rs.filter((x) => x.some !== undefined).length} of named submissions), each median ${fmt(median(rs.map((x) => x.ms)), 1)} ms (max ${fmt(max(rs.map((x) => x.ms)))} ms), ` +
          `the first starting median ${fmt(median(judged.filter((x) => x.refreshes.length).map((x) => x.refreshes[0].startMs)), 1)} ms after the report was sent`,
      );
    }
    const full = median(adminRounds.map((x) => x.ms));
    console.log(goalLine('admin feed from token 0, all events arrived (median)', full, TARGET_FULL_MS, 'ms', true));
    console.log(goalLine('new judgement to its line on an open feed (median)', median(times), TARGET_JUDGEMENT_MS, 'ms', true, 1));
    console.log(goalLine('new judgement to its line on an open feed (max)', max(times), TARGET_JUDGEMENT_MS, 'ms', true, 1));
    console.log(`at the end: ${await loadAverage()}`);
  } finally {
    await judge.stop();
  }
}

// last: the constants above are initialised by now
if (process.argv[2] === 'child') await child();
else await main();
