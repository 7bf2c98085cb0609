// The web pages' speed targets, measured in Debian's Chromium against a real `judge up` (with its
// runner) on loopback: the first load of the problem page until its LaTeX statement is rendered
// with its math (target under 1 s), the same page loaded again with a warm cache, and a submit
// until the submission shows as queued (target under 300 ms). Times are the page's own
// (performance.now() from the navigation's start, or from the click), so the browser driver's
// overhead is left out. Also prints the initial JavaScript of the build, gzipped (budget 250 KB).
// BENCH_ROUNDS (5) rounds of each; medians and maxima, with the load average.
//
//   cd /work/main && pnpm build && node bench/web-pages.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { JudgeClient } from '../packages/sdk/dist/index.js';
import { ops } from '../packages/contract/dist/index.js';
import { load, median } from './judging-lib.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ADMIN_PASSWORD = 'bench-web-admin-password';
const root = fileURLToPath(new URL('..', import.meta.url));
const { ZipFile } = createRequire(join(root, 'packages/cli/package.json'))('yazl');

const STATEMENT = String.raw`\problemname{Sum of two}
Given integers $a$ and $b$, print $a + b$. Squares stay non-negative: $x^2 \ge 0$.
$$\sum_{i=1}^{n} i = \frac{n(n+1)}{2}$$
\section*{Input}
One line with $a$ and $b$ ($|a|, |b| \le 10^9$).
\section*{Output}
Their sum.
`;
const CPP = '#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << a + b << "\\n"; }\n';

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

async function startJudge() {
  const dataDir = mkdtempSync(join(os.tmpdir(), 'bench-web-'));
  const port = await freePort();
  const env = { ...process.env, JUDGE_ADMIN_PASSWORD: ADMIN_PASSWORD, JUDGE_LOG_LEVEL: 'warn' };
  const child = spawn(join(root, 'bin/judge'), ['up', '--data-dir', dataDir, '--port', String(port), '--runner-uid-base', '62900'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`judge up not judging within 60 s:\n${out}`)), 60_000);
    const seen = (b) => {
      out += b;
      if (/runner local connected/.test(out)) {
        clearTimeout(t);
        resolve();
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('exit', (code) => reject(new Error(`judge up exited with ${code}:\n${out}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    async stop() {
      child.removeAllListeners('exit');
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A contest with the a + b problem (LaTeX statement, one sample), and a participant's session cookie. */
async function world(url) {
  const admin = new JudgeClient({ baseUrl: url });
  await admin.login('admin', ADMIN_PASSWORD);
  const problem = await admin.call(ops.createProblem, { body: { slug: 'sum', name: 'Sum', type: 'standard-io@1' } });
  const pkg = await admin.upload(
    'sum.zip',
    await zip({ 'problem.yaml': 'name: Sum\n', 'problem_statement/problem.en.tex': STATEMENT, 'data/sample/1.in': '1 2\n', 'data/sample/1.ans': '3\n', 'data/secret/1.in': '5 5\n', 'data/secret/1.ans': '10\n' }),
    'application/zip',
  );
  await admin.call(ops.createProblemVersion, { params: { problemId: problem.id }, body: { package: { fileId: pkg.id } } });
  const act = await admin.call(ops.createActivity, { body: { slug: 'bench', name: 'Bench', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false } });
  const series = await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'main', name: 'Main' } });
  await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug: 'sum' } });
  const issued = await admin.call(ops.createUser, { body: { username: 'pupil' } });
  const pupil = new JudgeClient({ baseUrl: url });
  const cookie = await pupil.loginWithCookie(issued.username, issued.password);
  await pupil.call(ops.enrol, { params: { idOrSlug: act.slug }, body: {} });
  return { cookie, path: '/a/bench/p/sum' };
}

/** ms from the navigation's start until the statement's math is on the page. */
const STATEMENT_SHOWN = () =>
  new Promise((resolve) => {
    const done = () => document.querySelector('.statement-body .katex') && (resolve(performance.now()), true);
    if (done()) return;
    new MutationObserver((_, o) => done() && o.disconnect()).observe(document, { subtree: true, childList: true });
  });

/** ms from the click on Submit until one more submission is listed. */
const SUBMIT_TO_QUEUED = () =>
  new Promise((resolve) => {
    const rows = () => document.querySelectorAll('.problem-submissions tbody tr').length;
    const before = rows();
    const t0 = performance.now();
    new MutationObserver((_, o) => {
      if (rows() > before) {
        o.disconnect();
        resolve(performance.now() - t0);
      }
    }).observe(document, { subtree: true, childList: true });
    document.querySelector('.submit-form button[type=submit]').click();
  });

function initialJsKb() {
  const dist = join(root, 'packages/web/dist');
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  return files.reduce((n, f) => n + gzipSync(readFileSync(join(dist, f)), { level: 9 }).length, 0) / 1024;
}

const fmt = (xs) => `median ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`;

const loadStart = load();
const judge = await startJudge();
const browser = await chromium.launch({ executablePath: process.env.JUDGE_TEST_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const { cookie, path } = await world(judge.url);
  const cold = [];
  const warm = [];
  const queued = [];
  for (let r = 0; r < ROUNDS; r++) {
    // a new context has an empty cache: the first load of a student's browser
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await ctx.addCookies([{ name: 'judge_session', value: cookie, url: judge.url }]);
    const page = await ctx.newPage();
    await page.goto(`${judge.url}${path}`, { waitUntil: 'commit' });
    cold.push(await page.evaluate(STATEMENT_SHOWN));
    await page.reload({ waitUntil: 'commit' });
    warm.push(await page.evaluate(STATEMENT_SHOWN));
    await page.locator('.language-select').selectOption('cpp');
    await page.locator('.submit-form .cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(CPP);
    queued.push(await page.evaluate(SUBMIT_TO_QUEUED));
    await ctx.close();
  }
  console.log(`problem page, first load to a rendered LaTeX statement (cold cache): ${fmt(cold)}; target under 1000 ms: ${median(cold) < 1000 ? 'met' : 'NOT met'}`);
  console.log(`problem page, loaded again (warm cache): ${fmt(warm)}`);
  console.log(`submit to the submission listed as queued: ${fmt(queued)}; target under 300 ms: ${median(queued) < 300 ? 'met' : 'NOT met'}`);
  const kb = initialJsKb();
  console.log(`initial JavaScript: ${kb.toFixed(1)} KB gzipped; budget 250 KB: ${kb < 250 ? 'met' : 'NOT met'}`);
  console.log(`load average (1, 5, 15 min): start ${loadStart}, end ${load()} (${os.cpus().length} CPUs)`);
} finally {
  await browser.close();
  await judge.stop();
}
