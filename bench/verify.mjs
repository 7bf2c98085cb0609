// `judgectl problems verify` against problemtools' `verifyproblem` on the same packages, machine and
// run: ROUNDS rounds (default 3) of each package, wall time from the command's start to its exit.
// The judge (packages/server/dist) runs in this process, one `bin/judge-runner` (one slot, bwrap,
// root) as a child; judgectl is the built `bin/judgectl`. problemtools is a Python package this
// machine may not have (it is not installable without PyPI): without `verifyproblem` on PATH the
// script prints our times alone and says how to get problemtools' figures.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_PASSWORD, adminToken, fmt, json, loadAverage, startBenchApp } from './lib.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CTL = fileURLToPath(new URL('../bin/judgectl', import.meta.url));
const RUNNER = fileURLToPath(new URL('../bin/judge-runner', import.meta.url));
/** Sandbox slot uids no test file uses. */
const UID_BASE = 61900;

const SUM_C = '#include <stdio.h>\nint main(void){long a,b;scanf("%ld %ld",&a,&b);printf("%ld\\n",a+b);return 0;}\n';
const SUM_PY = 'a, b = map(int, input().split())\nprint(a + b)\n';
const PACKAGES = {
  // problemtools' `hello`: a named limit, two accepted examples
  hello: {
    'problem.yaml': 'name: Hello\n',
    '.timelimit': '1\n',
    'data/sample/1.in': '',
    'data/sample/1.ans': 'Hello World!\n',
    'data/secret/1.in': '',
    'data/secret/1.ans': 'Hello World!\n',
    'submissions/accepted/hello.c': '#include <stdio.h>\nint main(void){puts("Hello World!");return 0;}\n',
    'submissions/accepted/hello.py': 'print("Hello World!")\n',
  },
  // no time limit: calibrated from the accepted examples (three runs of the slowest)
  sum: {
    'problem.yaml': 'name: Sum\n',
    'data/sample/1.in': '1 2\n',
    'data/sample/1.ans': '3\n',
    ...Object.fromEntries(Array.from({ length: 3 }, (_, i) => [[`data/secret/${i}.in`, `${i + 4} ${i * 7}\n`], [`data/secret/${i}.ans`, `${i * 8 + 4}\n`]]).flat()),
    'submissions/accepted/sum.c': SUM_C,
    'submissions/accepted/sum.py': SUM_PY,
    'submissions/wrong_answer/off.c': SUM_C.replace('a+b', 'a+b+(a>4)'),
    'submissions/time_limit_exceeded/spin.c': 'int main(void){volatile unsigned long x=0;for(;;)x++;}\n',
  },
};

function writeTree(root, files) {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), content);
  }
}

const timed = (cmd, args, env = process.env) =>
  new Promise((resolve) => {
    const t0 = performance.now();
    execFile(cmd, args, { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ ms: performance.now() - t0, ok: !err, out: err ? `${stdout}\n${stderr}` : stdout }),
    );
  });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => `${fmt(Math.min(...xs) / 1000, 1)}–${fmt(Math.max(...xs) / 1000, 1)} s`;

const work = mkdtempSync(join(tmpdir(), 'bench-verify-'));
const { app, dataDir } = await startBenchApp();
let runner;
try {
  const token = await adminToken(app.url);
  const env = { ...process.env, JUDGECTL_CONFIG_DIR: join(work, 'ctl'), JUDGECTL_PASSWORD: '' };
  writeFileSync(join(work, 'pw'), `${ADMIN_PASSWORD}\n`);
  const login = await timed(CTL, ['login', '--server', app.url, '--username', 'admin', '--password-file', join(work, 'pw')], env);
  if (!login.ok) throw new Error(`judgectl login: ${login.out}`);
  // never spawnSync while the judge runs in this process: it would stop answering
  const reg = await timed(RUNNER, ['register', '--server', app.url, '--name', 'bench-verify', '--config-dir', join(work, 'runner'), '--json']);
  if (!reg.ok) throw new Error(`judge-runner register: ${reg.out}`);
  const { runnerId } = JSON.parse(reg.out);
  await json(`${app.url}/api/v1/runners/${runnerId}/approve`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
  runner = spawn(RUNNER, ['start', '--config-dir', join(work, 'runner'), '--uid-base', String(UID_BASE), '--slots', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let logs = '';
  runner.stdout.on('data', (d) => (logs += d));
  runner.stderr.on('data', (d) => (logs += d));
  for (let i = 0; i < 600 && !logs.includes('judging for'); i++) await new Promise((r) => setTimeout(r, 100));
  if (!logs.includes('judging for')) throw new Error(`the runner did not start:\n${logs}`);

  for (const [name, files] of Object.entries(PACKAGES)) writeTree(join(work, 'pkg', name), files);
  const problemtools = spawnSync('verifyproblem', ['--help'], { encoding: 'utf8' }).status === 0;

  console.log(`judgectl problems verify vs problemtools' verifyproblem, ${ROUNDS} rounds, ${await loadAverage()}`);
  for (const name of Object.keys(PACKAGES)) {
    const dir = join(work, 'pkg', name);
    const ours = [];
    const theirs = [];
    for (let round = 0; round < ROUNDS; round++) {
      const r = await timed(CTL, ['problems', 'verify', dir, '--timeout', '600'], env);
      if (!r.ok) console.log(`  ${name} round ${round + 1}: judgectl problems verify failed:\n${r.out}`);
      ours.push(r.ms);
      if (problemtools) {
        const p = await timed('verifyproblem', [dir]);
        if (!p.ok) console.log(`  ${name} round ${round + 1}: verifyproblem failed:\n${p.out.slice(-2000)}`);
        theirs.push(p.ms);
      }
    }
    const line = `${name}: judgectl ${range(ours)} (median ${fmt(median(ours) / 1000, 1)} s)`;
    if (problemtools) console.log(`${line}; verifyproblem ${range(theirs)} (median ${fmt(median(theirs) / 1000, 1)} s); ratio ${fmt(median(ours) / median(theirs), 2)}`);
    else console.log(line);
  }
  if (!problemtools) {
    console.log(
      "problemtools not found (no `verifyproblem` on PATH): only this judge's times are printed. To compare, on a machine with PyPI: " +
        '`pip install problemtools` (it needs its checktestdata and default validator to build), then run this script again there, ' +
        'with this judge built (`pnpm build`), as root with bubblewrap.',
    );
  }
  console.log(`after: ${await loadAverage()}`);
} finally {
  runner?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  if (runner && runner.exitCode === null) runner.kill('SIGKILL');
  await app.close?.();
  rmSync(work, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
