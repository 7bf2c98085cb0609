// The staff's submission stream with 10,000 submissions in the activity, in Debian's Chromium against
// a real `judge up` on loopback (without its runner: what is measured is the page, not judging):
//   1. navigation to /staff/a/:activity/submissions until its first page (25 rows) is rendered,
//      with an empty cache each round (target under 300 ms), and again with a warm cache;
//   2. live: a participant submits 10 a second for BENCH_LIVE_SECONDS (30) while the page is open;
//      for each submission the time from the submit request's start until its row is on the page,
//      and how many of them the page showed at all (every one should: 10 a second is far fewer than
//      the 25 rows of the first page between two refetches).
// The 10,000 are written straight into the server's SQLite store (as the judged history of a contest
// would be there), spread over the last six hours, by 40 participants over 4 problems; the server
// holds its database exclusively, so it is stopped for that and started again on the same data.
// Times in the page are its own (performance.now() from the navigation, Date.now() for the live
// part on the same machine), so the browser driver's overhead is left out. Prints the load average.
//
//   cd /work/main && pnpm build && node bench/staff-submissions-stream.mjs
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { JudgeClient } from '../packages/sdk/dist/index.js';
import { ops } from '../packages/contract/dist/index.js';
import { load, median, p95 } from './judging-lib.mjs';
import { mainThreadUntil, SCRIPTS_BEFORE, TRACE_CATEGORIES } from './trace-lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TOTAL = Number(process.env.BENCH_SUBMISSIONS ?? 10_000);
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 30);
const RATE = 10;
const ADMIN_PASSWORD = 'bench-stream-admin-password';
const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(root, 'packages/server/package.json'));
const Database = require('better-sqlite3');
const { ZipFile } = createRequire(join(root, 'packages/cli/package.json'))('yazl');

function zip(files) {
  const z = new ZipFile();
  for (const [name, text] of Object.entries(files)) z.addBuffer(Buffer.from(text), name);
  z.end();
  const chunks = [];
  return new Promise((resolve, reject) => {
    z.outputStream.on('data', (c) => chunks.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    z.outputStream.on('error', reject);
  });
}

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function startJudge(dataDir, port) {
  const env = { ...process.env, JUDGE_ADMIN_PASSWORD: ADMIN_PASSWORD, JUDGE_LOG_LEVEL: 'warn' };
  const child = spawn(join(root, 'bin/judge'), ['up', '--data-dir', dataDir, '--port', String(port), '--no-runner'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`judge up not serving within 60 s:\n${out}`)), 60_000);
    const seen = (b) => {
      out += b;
      if (/serving http/.test(out)) {
        clearTimeout(t);
        resolve();
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('exit', (code) => reject(new Error(`judge up exited with ${code}:\n${out}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.removeAllListeners('exit');
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A contest with four problems, 40 participants and one more who submits live; the admin's session cookie. */
async function world(url) {
  const admin = new JudgeClient({ baseUrl: url });
  await admin.login('admin', ADMIN_PASSWORD);
  const act = await admin.call(ops.createActivity, { body: { slug: 'bench', name: 'Bench', type: 'contest@1', rankingType: 'icpc', timeZone: 'Europe/Berlin', joinPolicy: 'open', unlisted: false } });
  const series = await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'main', name: 'Main' } });
  const pkg = await admin.upload('p.zip', await zip({ 'problem.yaml': 'name: P\n', 'data/sample/1.in': '1 2\n', 'data/sample/1.ans': '3\n' }), 'application/zip');
  for (const slug of ['a', 'b', 'c', 'd']) {
    const problem = await admin.call(ops.createProblem, { body: { slug: `bench-${slug}`, name: `Problem ${slug.toUpperCase()}`, type: 'standard-io@1' } });
    await admin.call(ops.createProblemVersion, { params: { problemId: problem.id }, body: { package: { fileId: pkg.id } } });
    await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug } });
  }
  const users = [];
  for (let i = 0; i < 40; i++) users.push((await admin.call(ops.createUser, { body: { username: `pupil${i}`, firstName: 'Pupil', lastName: String(i) } })).userId);
  const issued = await admin.call(ops.createUser, { body: { username: 'live' } });
  const live = new JudgeClient({ baseUrl: url });
  await live.login(issued.username, issued.password);
  await live.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
  const cookie = await new JudgeClient({ baseUrl: url }).loginWithCookie('admin', ADMIN_PASSWORD);
  return { act, users, live, cookie };
}

/** TOTAL judged submissions written into the store in one transaction, newest a minute ago. */
function insertHistory(dataDir, activityId, users) {
  const db = new Database(join(dataDir, 'judge.db'));
  db.pragma('busy_timeout = 10000');
  const assignments = db
    .prepare(
      `SELECT sp.id, sp.series_id AS seriesId, (SELECT id FROM problem_versions WHERE problem_id = sp.problem_id ORDER BY version DESC LIMIT 1) AS versionId
       FROM series_problems sp WHERE sp.activity_id = ?`,
    )
    .all(activityId);
  const add = db.prepare(
    `INSERT INTO submissions (id, activity_id, series_id, series_problem_id, problem_version_id, user_id, submitted_at, props, state, verdict, score, max_score, attempts)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'completed', ?, ?, 1, 1)`,
  );
  const verdicts = ['AC', 'WA', 'WA', 'TLE', 'RTE', 'CE'];
  const newest = Date.now() - 60_000;
  const t0 = performance.now();
  db.transaction(() => {
    for (let i = 0; i < TOTAL; i++) {
      const a = assignments[i % assignments.length];
      const verdict = verdicts[i % verdicts.length];
      const at = new Date(newest - Math.floor((i * 6 * 3600_000) / TOTAL)).toISOString();
      add.run(randomUUID(), activityId, a.seriesId, a.id, a.versionId, users[i % users.length], at, JSON.stringify({ language: 'python3' }), verdict, verdict === 'AC' ? 1 : 0);
    }
  })();
  const ms = performance.now() - t0;
  db.close();
  return ms;
}

/** ms from the navigation's start until the stream's first page is on the page. */
const FIRST_PAGE = () =>
  new Promise((resolve) => {
    const done = () => document.querySelectorAll('.staff-stream tbody tr').length >= 25 && (performance.mark('bench:first-page'), resolve(performance.now()), true);
    if (done()) return;
    new MutationObserver((_, o) => done() && o.disconnect()).observe(document, { subtree: true, childList: true });
  });

const WATERFALL = () =>
  performance
    .getEntriesByType('resource')
    .map((e) => `${e.startTime.toFixed(0).padStart(5)} → ${e.responseEnd.toFixed(0).padStart(5)}  ${e.name.replace(location.origin, '')}`)
    .join('\n');

/** Records, in the page, when each submission's row first appeared (Date.now()). */
const WATCH_ROWS = () => {
  window.__rowSeen = {};
  const mark = () => {
    const now = Date.now();
    for (const tr of document.querySelectorAll('.staff-stream tbody tr[data-submission]')) {
      const id = tr.getAttribute('data-submission');
      if (!(id in window.__rowSeen)) window.__rowSeen[id] = now;
    }
  };
  mark();
  new MutationObserver(mark).observe(document, { subtree: true, childList: true });
};

/**
 * BENCH_TRACE=1: ROUNDS more cold navigations (not in the figures above) under Chromium's performance
 * trace: the JavaScript the page received before its first page was rendered, and the main thread's
 * CPU and busy time until then. The CPU time depends far less on the machine's load than the wall
 * times do; BENCH_TRACE=<file.json> also keeps the first trace (DevTools' Performance panel opens it).
 */
async function traced(browser, url, path, cookie) {
  const rounds = [];
  let scripts;
  for (let r = 0; r < ROUNDS; r++) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await ctx.addCookies([{ name: 'judge_session', value: cookie, url }]);
    const page = await ctx.newPage();
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    await page.goto(`${url}${path}`, { waitUntil: 'commit' });
    const at = await page.evaluate(FIRST_PAGE);
    const buffer = await browser.stopTracing();
    scripts = await page.evaluate(SCRIPTS_BEFORE, at);
    await ctx.close();
    if (r === 0 && /\.json$/.test(process.env.BENCH_TRACE)) writeFileSync(process.env.BENCH_TRACE, buffer);
    rounds.push(mainThreadUntil(JSON.parse(buffer.toString()), url, 'bench:first-page'));
  }
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  const of = (k) => rounds.map((m) => m[k]);
  console.log(`traced: before the first page ${scripts.count} scripts, ${kb(scripts.transferred)} over the wire, ${kb(scripts.decoded)} decoded`);
  console.log(`traced: first page at median ${median(of('wallMs')).toFixed(0)} ms; main thread CPU until then median ${median(of('cpuMs')).toFixed(0)} ms (${of('cpuMs').map((x) => x.toFixed(0)).join(', ')}), busy (wall) median ${median(of('busyMs')).toFixed(0)} ms`);
  const groups = Object.keys(rounds[0].groups).map((g) => `${g} ${median(rounds.map((m) => m.groups[g])).toFixed(0)}`).join(', ');
  console.log(`traced: busy time by kind, medians in ms (they overlap): ${groups}`);
}

const fmt = (xs) => `median ${median(xs).toFixed(0)} ms, p95 ${p95(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const loadStart = load();
const dataDir = mkdtempSync(join(os.tmpdir(), 'bench-stream-'));
const port = await freePort();
let judge = await startJudge(dataDir, port);
const browser = await chromium.launch({ executablePath: process.env.JUDGE_TEST_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const { act, users, live, cookie } = await world(judge.url);
  await judge.stop();
  const insertMs = insertHistory(dataDir, act.id, users);
  judge = await startJudge(dataDir, port);
  console.log(`${TOTAL} submissions written into the store in ${insertMs.toFixed(0)} ms`);
  const path = `/staff/a/${act.slug}/submissions`;
  // the server's part: GET /submissions for the first page, as the page asks it
  const api = new JudgeClient({ baseUrl: judge.url });
  await api.login('admin', ADMIN_PASSWORD);
  const apiMs = [];
  for (let r = 0; r < 10; r++) {
    const t = performance.now();
    await api.call(ops.listSubmissions, { query: { activityId: act.id, page: 1, pageSize: 25 } });
    apiMs.push(performance.now() - t);
  }
  console.log(`GET /submissions, first page of 25 of ${TOTAL}: ${fmt(apiMs)}`);
  const cold = [];
  const warm = [];
  for (let r = 0; r < ROUNDS; r++) {
    // a new context has an empty cache: the first visit of a teacher's browser
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await ctx.addCookies([{ name: 'judge_session', value: cookie, url: judge.url }]);
    const page = await ctx.newPage();
    await page.goto(`${judge.url}${path}`, { waitUntil: 'commit' });
    cold.push(await page.evaluate(FIRST_PAGE));
    // BENCH_WATERFALL=1: when each request of the first round started and ended (ms from the navigation)
    if (process.env.BENCH_WATERFALL && r === 0) console.log(await page.evaluate(WATERFALL));
    await page.reload({ waitUntil: 'commit' });
    warm.push(await page.evaluate(FIRST_PAGE));
    await ctx.close();
  }
  console.log(`stream, navigation to its first page rendered (cold cache): median ${median(cold).toFixed(0)} ms, max ${Math.max(...cold).toFixed(0)} ms (${cold.map((x) => x.toFixed(0)).join(', ')}); target under 300 ms: ${median(cold) < 300 ? 'met' : 'NOT met'}`);
  console.log(`stream, loaded again (warm cache): median ${median(warm).toFixed(0)} ms, max ${Math.max(...warm).toFixed(0)} ms (${warm.map((x) => x.toFixed(0)).join(', ')})`);
  if (process.env.BENCH_TRACE) await traced(browser, judge.url, path, cookie);

  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await ctx.addCookies([{ name: 'judge_session', value: cookie, url: judge.url }]);
  const page = await ctx.newPage();
  await page.goto(`${judge.url}${path}`, { waitUntil: 'commit' });
  await page.evaluate(FIRST_PAGE);
  // a moment for the event socket to connect: events sent before it are not delivered to the page
  await sleep(1500);
  await page.evaluate(WATCH_ROWS);
  const sent = [];
  const started = Date.now();
  const inFlight = [];
  for (let i = 0; i < LIVE_SECONDS * RATE; i++) {
    const due = started + (i * 1000) / RATE;
    await sleep(Math.max(0, due - Date.now()));
    const t = Date.now();
    inFlight.push(live.submit('bench', 'a', [{ name: `s${i}.py`, bytes: `print(${i})\n` }]).then((s) => sent.push({ id: s.id, at: s.submittedAt, t })));
  }
  await Promise.all(inFlight);
  const achieved = sent.length / ((Date.now() - started) / 1000);
  await sleep(3000);
  const seen = await page.evaluate(() => window.__rowSeen);
  const latencies = sent.filter((s) => s.id in seen).map((s) => seen[s.id] - s.t);
  const missed = sent.length - latencies.length;
  console.log(`live: ${sent.length} submissions in ${LIVE_SECONDS} s (${achieved.toFixed(1)} a second) while the stream was open`);
  console.log(`live: submit to its row on the page: ${fmt(latencies)}; rows never shown: ${missed}`);
  const newest = await page.locator('.staff-stream tbody tr').first().getAttribute('data-submission');
  const last = sent.reduce((a, b) => (b.at > a.at || (b.at === a.at && b.id > a.id) ? b : a));
  console.log(`live: the newest row at the end is the last submission: ${newest === last.id ? 'yes' : `NO (${newest} vs ${last.id})`}`);
  await ctx.close();
  console.log(`load average (1, 5, 15 min): start ${loadStart}, end ${load()} (${os.cpus().length} CPUs)`);
} finally {
  await browser.close();
  await judge.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
