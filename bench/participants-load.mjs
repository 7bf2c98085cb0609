// Participants held by one judge server at p99 under 100 ms, measured from outside: the judge in a
// child process of its own, the participants played by BENCH_GENERATORS load-generator processes
// (participants-load-generator.mjs), a runner judging at once in this process.
//
// The mix, per participant: its event socket open (a cookie session, one tab), its own
// submissions polled every BENCH_POLL_SECONDS (10), a problem opened every BENCH_OPEN_SECONDS
// (60), a submission every BENCH_SUBMIT_SECONDS (120). The runner is BENCH_RUNNERS (2)
// claim → report clients (the SDK's RunnerClient) that answer every job at once with an accepted
// verdict: a real judge-runner sandboxes each submission, and 42 submissions a second (5,000
// participants) would need far more than this machine's two CPUs, so the sandbox would be what is
// measured. The judge still does everything a report makes it do: the verdict, the author's
// events, the standings, the managers' events.
//
// Steps: BENCH_STEPS (1000,2000,3000,5000) participants, each BENCH_WARMUP_SECONDS (15) of warm-up
// and BENCH_SECONDS (60) measured. Per step: sockets open, requests/s, latency p50/p95/p99 (every
// request, and p99 per kind), frames/s received by the participants (by type), the time from a
// submit's answer to its verdict frame, the judge's CPU %, errors and resets, and where it stops:
// the first step with p99 ≥ 100 ms or any error (the steps after it are not run unless BENCH_ALL=1).
//
// Servers: BENCH_CONFIGS, a list of engine:servers (default `sqlite:1`; with BENCH_SERVERS=N,
// `sqlite:1,postgres:1,postgres:N`): each configuration runs the steps until it stops, with a fresh
// database (PostgreSQL: a throw-away cluster, or BENCH_DATABASE's) and fresh participants. Several
// servers share one PostgreSQL database; each has its own data directory whose `files` links to one
// shared directory; the participants and the runner clients are spread over the servers in turn
// (participant i talks to server i mod N, its socket and its requests alike: no balancer), and the
// judge CPU is the servers' sum. At the end: the participants each configuration held and the
// scale factor of the last against each of the others.
//
//   cd /work/main && pnpm build && node bench/participants-load.mjs
//   env: BENCH_SERVERS, BENCH_CONFIGS, BENCH_DATABASE (a PostgreSQL cluster's URL), BENCH_STEPS, BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_GENERATORS (2), BENCH_RUNNERS (2),
//        BENCH_POLL_SECONDS, BENCH_OPEN_SECONDS, BENCH_SUBMIT_SECONDS, BENCH_PROBLEMS (4), BENCH_ALL,
//        BENCH_NICE (a nice value for the judge and the generators, e.g. -10 as root on a shared machine),
//        BENCH_PROFILE (a directory: the judge process writes a V8 CPU profile there on exit),
//        BENCH_POOL_SIZE (each judge's PostgreSQL connections, the setting databasePoolSize; its default otherwise)
import { existsSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ops, RunnerClient, generateRunnerKey } from '../packages/sdk/dist/index.js';
import { PROBLEM_TYPE, makeContest, packageZip, percentile } from './contest.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureOpenFiles, fmt, freshDatabase, loadAverage, pool, startChild, startPgCluster } from './lib.mjs';

const STEPS = (process.env.BENCH_STEPS ?? '1000,2000,3000,5000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 15);
const GENERATORS = Number(process.env.BENCH_GENERATORS ?? 2);
const RUNNERS = Number(process.env.BENCH_RUNNERS ?? 2);
const PROBLEMS = Number(process.env.BENCH_PROBLEMS ?? 4);
const MIX = {
  pollSeconds: Number(process.env.BENCH_POLL_SECONDS ?? 10),
  openSeconds: Number(process.env.BENCH_OPEN_SECONDS ?? 60),
  submitSeconds: Number(process.env.BENCH_SUBMIT_SECONDS ?? 120),
};
const TARGET_P99_MS = 100;
const SERVERS = Number(process.env.BENCH_SERVERS ?? 1);
const CONFIGS = (process.env.BENCH_CONFIGS ?? (SERVERS > 1 ? `sqlite:1,postgres:1,postgres:${SERVERS}` : 'sqlite:1')).split(',').map((c) => {
  const [engine, n] = c.split(':');
  return { engine, servers: Number(n ?? 1) };
});
/**
 * A nice value for the judge and the generators (negative needs root): on a machine shared with
 * other work, what is measured is then the judge rather than its wait for a CPU. Each then runs in
 * a session of its own, and where the kernel schedules by session (autogroup), that session's
 * group gets the nice value too: a process's own nice only orders it within its group. Unset: as
 * started, in this script's session.
 */
const NICE = process.env.BENCH_NICE === undefined ? undefined : Number(process.env.BENCH_NICE);
const childOptions = { detached: NICE !== undefined };
function prioritise(pid) {
  if (NICE === undefined) return;
  setPriority(pid, NICE);
  if (existsSync(`/proc/${pid}/autogroup`)) writeFileSync(`/proc/${pid}/autogroup`, String(NICE));
}
const MOST = Math.max(...STEPS);
// every socket is a descriptor in the judge and in a generator, and the sign-ins and runners need some
if (ensureOpenFiles(MOST + 2048, import.meta.url)) process.exit(0);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const cluster = CONFIGS.some((c) => c.engine === 'postgres') && !process.env.BENCH_DATABASE ? startPgCluster() : undefined;

console.log(`participants load: ${CONFIGS.map((c) => `${c.engine} × ${c.servers}`).join(', ')}; Node ${process.version}; steps ${STEPS.join(', ')}; ${SECONDS} s measured after ${WARMUP} s warm-up`);
console.log(
  `  mix per participant: socket open, poll own submissions every ${MIX.pollSeconds} s, open a problem every ${MIX.openSeconds} s, submit every ${MIX.submitSeconds} s; ` +
    `${RUNNERS} claim → report runner clients answering every job at once; ${GENERATORS} load-generator processes; ${PROBLEMS} problems`,
);
const held = [];
try {
  for (const c of CONFIGS) held.push({ ...c, held: await runConfig(c) });
} finally {
  cluster?.stop();
}
console.log(`\nheld at p99 < ${TARGET_P99_MS} ms without errors (of the steps ${STEPS.join(', ')}):`);
for (const h of held) console.log(`  ${h.engine} × ${h.servers}: ${h.held ? fmt(h.held) : 'none'}`);
const last = held.at(-1);
for (const h of held.slice(0, -1)) {
  const factor = h.held && last.held ? last.held / h.held : NaN;
  console.log(`  scale factor ${last.engine} × ${last.servers} / ${h.engine} × ${h.servers}: ${Number.isFinite(factor) ? fmt(factor, 2) : '–'} (lower bound where the larger held every step)`);
}
const one = held.find((h) => h.servers === 1);
console.log(`GOAL one server ≥ 5,000 participants at p99 < ${TARGET_P99_MS} ms: ${held.some((h) => h.servers === 1 && h.held >= 5000) ? 'met' : 'NOT met'}`);
if (last.servers > 1 && one) console.log(`GOAL ${last.servers} servers ≥ 2.5 × one: ${last.held && one.held && last.held / one.held >= 2.5 ? 'met' : 'NOT met'}`);
process.exit(0);

/**
 * One configuration: its servers (the first initialises the database, the others join it), the
 * contest, the runner clients, then the steps until one is not held. Answers the most participants held.
 */
async function runConfig({ engine, servers }) {
  const db = engine === 'postgres' ? await freshDatabase(process.env.BENCH_DATABASE ?? cluster.url) : undefined;
  const shared = servers > 1 ? mkdtempSync(join(tmpdir(), 'judge-bench-files-')) : '';
  const config = JSON.stringify(db ? { database: db.url } : {});
  const judges = [];
  // one after another: the first applies the migrations and makes the admin
  for (let i = 0; i < servers; i++) {
    const j = startChild('./judge-child.mjs', [config, shared], profile, childOptions);
    judges.push(j);
    j.base = await j.ready;
    prioritise(j.child.pid);
  }
  const bases = judges.map((j) => j.base);
  console.log(`\n${engine} × ${servers}: ${bases.join(', ')}${servers > 1 ? `; shared files ${shared}` : ''}`);
  console.log(`  at the start: ${await loadAverage()}${NICE === undefined ? '' : `; the judges and the generators run at nice ${NICE}`}`);
  const t0 = performance.now();
  const contest = await makeContest(bases[0]);
  const problems = await addProblems(contest, PROBLEMS);
  console.log(`  set-up (contest, ${PROBLEMS} problems): ${fmt((performance.now() - t0) / 1000, 1)} s`);
  const run = { judges, bases, contest, problems, people: [], runner: await startRunners(bases, contest) };
  let most = 0;
  for (const n of STEPS) {
    const r = await step(run, n);
    print(r);
    if (!r.ok) break;
    most = n;
  }
  await run.runner.stop();
  console.log(`  at the end: ${await loadAverage()}`);
  for (const j of judges) await j.stop();
  if (shared) rmSync(shared, { recursive: true, force: true });
  await db?.drop();
  return most;
}

// ---------------------------------------------------------------- set-up

/** `n - 1` more problems like the contest's first (same package), attached to its series. */
async function addProblems(c, n) {
  const slugs = [c.problemSlug];
  const pkg = await c.admin.upload('package.zip', await packageZip(), 'application/zip');
  for (let i = 1; i < n; i++) {
    const problem = await c.admin.call(ops.createProblem, { body: { slug: `bench-sum-${i}`, name: `Sum ${i}`, type: PROBLEM_TYPE } });
    await c.admin.call(ops.createProblemVersion, { params: { problemId: problem.id }, body: { package: { fileId: pkg.id } } });
    await c.admin.call(ops.attachProblem, { params: { seriesId: c.seriesId }, body: { problemId: problem.id, slug: `sum${i}` } });
    slugs.push(`sum${i}`);
  }
  return slugs;
}

/** Accounts `from` to `to - 1`, each signed in once with a cookie (its one tab) and enrolled through that session. */
function signUp({ contest, bases }, from, to) {
  const base = bases[0];
  const origin = new URL(base).origin;
  return pool(
    Array.from({ length: to - from }, (_, i) => from + i),
    8,
    async (i) => {
      const issued = await contest.admin.call(ops.createUser, { body: { username: `load-${i}` } });
      const res = await fetch(`${base}/api/v1/identity/login?useCookies=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: issued.username, password: issued.password }),
      });
      if (!res.ok) throw new Error(`login ${issued.username}: ${res.status} ${await res.text()}`);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('judge_session=')).split(';')[0];
      const enrol = await fetch(`${base}/api/v1/activities/${contest.activity.slug}/enrolment`, {
        method: 'POST',
        headers: { cookie, origin, 'content-type': 'application/json' },
        body: '{}',
      });
      if (!enrol.ok) throw new Error(`enrol ${issued.username}: ${enrol.status} ${await enrol.text()}`);
      return { userId: issued.userId, cookie };
    },
  );
}

/** Claim → report clients, each answering every job at once, spread over the servers; counts the jobs judged. */
async function startRunners(bases, contest) {
  const clients = await pool(Array.from({ length: RUNNERS }, (_, i) => i), 2, async (i) => {
    const r = new RunnerClient({ baseUrl: bases[i % bases.length], key: generateRunnerKey(), userAgent: 'bench-runner' });
    const reg = await r.register({ name: `load-runner-${i}`, problemTypes: [PROBLEM_TYPE], version: 'bench' });
    await contest.admin.call(ops.approveRunner, { params: { id: reg.runnerId } });
    await r.authenticate();
    return r;
  });
  let running = true;
  const state = { judged: 0, errors: 0 };
  const loops = clients.map(async (r) => {
    while (running) {
      try {
        const job = await r.claim({ leaseSeconds: 60, waitSeconds: 2 });
        if (!job) continue;
        await r.report(job, { verdict: 'AC', score: 1, maxScore: 1, runnerVersion: 'bench' });
        state.judged++;
      } catch {
        state.errors++;
        await sleep(100);
      }
    }
  });
  return {
    state,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

// ---------------------------------------------------------------- one step

/** The judges' summed CPU time (µs) and each one's. */
async function judgesCpu(judges) {
  const each = await Promise.all(judges.map(async (j) => {
    const c = (await j.request('cpu')).cpu;
    return c.user + c.system;
  }));
  return { total: each.reduce((x, y) => x + y, 0), each };
}

/** The sockets the judges count, summed. */
async function judgesSockets(judges) {
  return (await Promise.all(judges.map((j) => j.request('mem')))).reduce((s, m) => s + m.sockets, 0);
}

async function step(run, n) {
  const { judges, bases, contest, problems, people, runner } = run;
  if (people.length < n) {
    const t = performance.now();
    people.push(...(await signUp(run, people.length, n)));
    console.log(`\n  participants ${fmt(people.length)} signed in with a cookie and enrolled (${fmt((performance.now() - t) / 1000, 1)} s)`);
  }
  // participant i talks to server i mod N
  const slice = people.slice(0, n).map((p, i) => ({ ...p, base: bases[i % bases.length] }));
  const count = Math.min(GENERATORS, n);
  const gens = await Promise.all(Array.from({ length: count }, async () => {
    const g = startChild('./participants-load-generator.mjs', [], [], childOptions);
    await g.ready;
    prioritise(g.child.pid);
    return g;
  }));
  const parts = gens.map((_, i) => slice.filter((_, k) => k % count === i));
  const opened = await Promise.all(gens.map((g, i) => g.request('open', { slug: contest.activity.slug, problems, people: parts[i], seconds: SECONDS, warmupSeconds: WARMUP, ...MIX })));
  const serverSockets = await judgesSockets(judges);
  const load0 = await loadAverage();
  const running = gens.map((g) => g.request('run'));
  await sleep(WARMUP * 1000);
  const cpu0 = await judgesCpu(judges);
  const judged0 = runner.state.judged;
  const runnerErrors0 = runner.state.errors;
  const w0 = performance.now();
  const figures = await Promise.all(running);
  const wall = (performance.now() - w0) / 1000;
  const cpu1 = await judgesCpu(judges);
  const judged = runner.state.judged - judged0;
  const runnerErrors = runner.state.errors - runnerErrors0;
  const serverSocketsEnd = await judgesSockets(judges);
  await Promise.all(gens.map((g) => g.stop()));
  await sleep(2000);
  const cpuPct = ((cpu1.total - cpu0.total) / 1e6 / wall) * 100;
  const cpuEach = cpu1.each.map((c, i) => ((c - cpu0.each[i]) / 1e6 / wall) * 100);
  return summarise(n, { opened, figures, serverSockets, serverSocketsEnd, cpuPct, cpuEach, judged, runnerErrors, load0, load1: await loadAverage() });
}

function merge(into, o) {
  for (const [k, v] of Object.entries(o)) into[k] = (into[k] ?? 0) + v;
  return into;
}

function summarise(n, { opened, figures, serverSockets, serverSocketsEnd, cpuPct, cpuEach, judged, runnerErrors, load0, load1 }) {
  const seconds = Math.max(...figures.map((f) => f.seconds));
  const kinds = ['poll', 'open', 'submit'];
  const byKind = Object.fromEntries(kinds.map((k) => [k, figures.flatMap((f) => f.ms[k]).sort((a, b) => a - b)]));
  const all = kinds.flatMap((k) => byKind[k]).sort((a, b) => a - b);
  const verdict = figures.flatMap((f) => f.verdictMs).sort((a, b) => a - b);
  const frames = figures.reduce((acc, f) => merge(acc, f.frames), {});
  const errors = merge(
    figures.reduce((acc, f) => merge(merge(acc, f.errors), f.status), {}),
    opened.reduce((acc, o) => merge(acc, o.errors), {}),
  );
  const resets = figures.reduce((s, f) => s + f.socketCloses + f.socketErrors, 0);
  const openAtEnd = figures.reduce((s, f) => s + f.open, 0);
  const failedOpen = opened.reduce((s, o) => s + o.failed, 0);
  const p = (xs, q) => percentile(xs, q);
  const errorCount = Object.values(errors).reduce((s, v) => s + v, 0) + resets + runnerErrors;
  return {
    n,
    ok: p(all, 99) < TARGET_P99_MS && errorCount === 0 && openAtEnd === n,
    seconds,
    sockets: { opened: opened.reduce((s, o) => s + o.opened, 0), failedOpen, server: serverSockets, serverEnd: serverSocketsEnd, openAtEnd, openMs: Math.max(...opened.map((o) => o.ms)) },
    rps: all.length / seconds,
    lat: { p50: p(all, 50), p95: p(all, 95), p99: p(all, 99), max: all.at(-1) },
    kinds: Object.fromEntries(kinds.map((k) => [k, { n: byKind[k].length, p99: p(byKind[k], 99) }])),
    verdict: { n: verdict.length, p50: p(verdict, 50), p99: p(verdict, 99), pending: figures.reduce((s, f) => s + f.pendingVerdicts, 0) },
    frames,
    framesPerSecond: Object.values(frames).reduce((s, v) => s + v, 0) / seconds,
    cpuPct,
    cpuEach,
    judgedPerSecond: judged / seconds,
    runnerErrors,
    errors,
    resets,
    load0,
    load1,
  };
}

function print(r) {
  const f = (x, d = 1) => (Number.isFinite(x) ? fmt(x, d) : '–');
  console.log(`\nN = ${fmt(r.n)}: ${r.ok ? 'held' : 'NOT held'} (${f(r.seconds, 0)} s measured; ${r.load0} → ${r.load1})`);
  console.log(
    `  sockets: ${fmt(r.sockets.opened)} opened in ${fmt(r.sockets.openMs / 1000, 1)} s (${fmt(r.sockets.failedOpen)} failed), the judge counted ${fmt(r.sockets.server)}, ` +
      `${fmt(r.sockets.openAtEnd)} open at the end (judge: ${fmt(r.sockets.serverEnd)})`,
  );
  console.log(`  requests: ${f(r.rps)} /s; latency p50 ${f(r.lat.p50)} ms, p95 ${f(r.lat.p95)} ms, p99 ${f(r.lat.p99)} ms, max ${f(r.lat.max)} ms`);
  console.log(`  p99 by kind: ${Object.entries(r.kinds).map(([k, v]) => `${k} ${f(v.p99)} ms (${fmt(v.n)})`).join(', ')}`);
  console.log(`  judged ${f(r.judgedPerSecond)} /s (runner call failures ${fmt(r.runnerErrors)}); submit answered → own verdict frame p50 ${f(r.verdict.p50)} ms, p99 ${f(r.verdict.p99)} ms (${fmt(r.verdict.n)} seen, ${fmt(r.verdict.pending)} still awaited)`);
  const byType = Object.entries(r.frames).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${f(v / r.seconds, 0)}`).join(', ');
  console.log(`  frames received: ${f(r.framesPerSecond, 0)} /s (${byType || 'none'})`);
  const requests = r.rps * r.seconds;
  console.log(`  judge CPU: ${f(r.cpuPct, 0)} % of a core${r.cpuEach.length > 1 ? ` (by server: ${r.cpuEach.map((c) => f(c, 0)).join(' + ')})` : ''}; ${f((r.cpuPct / 100) * 1e6 * r.seconds / requests, 0)} µs per request of the mix (sockets and frames included), ${f(r.cpuPct / (r.n / 1000), 1)} % per 1,000 participants`);
  console.log(`  errors: ${Object.keys(r.errors).length ? JSON.stringify(r.errors) : 'none'}; sockets closed or reset while measured: ${fmt(r.resets)}`);
}
