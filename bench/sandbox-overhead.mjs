// Sandbox cost per run: BENCH_RUNS (200) runs of a trivial compiled C program (reads a number,
// prints it) through judge-runner's Sandbox (a cell's launcher in reused cgroups + bwrap + slot
// uid + rlimits + watchdogs + counters + verdict + the cell's reset), against two references
// spawned from this process: the bare bubblewrap floor `bwrap --unshare-all --ro-bind / / true`
// (the reference: what any bwrap sandbox costs at least) and a plain child_process.spawn
// of the very same binary. The three are interleaved (their order rotates every iteration) so
// that load from elsewhere on the machine hits all alike. The program reads stdin from a file and
// writes stdout to a file in both of its runs; each run is timed from before the request until
// the result is known.
// Prints median, p95 and mean of each, the ratio sandbox ÷ bwrap floor (target ≤ 1.3), the
// overhead over the plain spawn, and the CPU time the cgroup charged to the runs.
//
//   cd /work/main && pnpm build && node bench/sandbox-overhead.mjs
//   env: BENCH_RUNS (default 200), BENCH_WARMUP (default 20)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Sandbox, compile, loadLanguages } from '../packages/runner/dist/index.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
const limits = { cpuMs: 1000, wallMs: 3000, memoryBytes: 256 << 20, pids: 64, outputBytes: 1 << 20 };

const sandbox = await Sandbox.create();
const table = loadLanguages();
const c = table.get('c');
if (!c?.present) throw new Error('needs gcc (the c language of config/languages.json)');
const tmp = fs.mkdtempSync(path.join(sandbox.workRoot, 'bench-'));
fs.mkdirSync(path.join(tmp, 'src'));
fs.writeFileSync(path.join(tmp, 'src', 'main.c'), '#include <stdio.h>\nint main(void) { long x = 0; if (scanf("%ld", &x) != 1) return 1; printf("%ld\\n", x); return 0; }\n');
const built = await compile(sandbox, c, path.join(tmp, 'src'), path.join(tmp, 'bin'));
if (!built.ok) throw new Error(built.log);
const binary = path.join(built.dir, 'main');
const input = path.join(tmp, 'in.txt');
const output = path.join(tmp, 'out.txt');
fs.writeFileSync(input, '4242\n');

const bwrapPath = sandbox.bwrap.path;
async function floor() {
  const t0 = performance.now();
  const child = spawn(bwrapPath, ['--unshare-all', '--ro-bind', '/', '/', 'true'], { stdio: 'ignore' });
  const code = await new Promise((resolve, reject) => child.once('exit', resolve).once('error', reject));
  if (code !== 0) throw new Error(`bwrap floor exit ${code}`);
  return { ms: performance.now() - t0 };
}

function check() {
  const got = fs.readFileSync(output, 'utf8');
  if (got !== '4242\n') throw new Error(`wrong output ${JSON.stringify(got)}`);
}

async function plain() {
  const t0 = performance.now();
  const inFd = fs.openSync(input, 'r');
  const outFd = fs.openSync(output, 'w');
  const child = spawn(binary, [], { stdio: [inFd, outFd, 'ignore'], env: { PATH: '/usr/bin:/bin' } });
  fs.closeSync(inFd);
  fs.closeSync(outFd);
  const code = await new Promise((resolve, reject) => child.once('exit', resolve).once('error', reject));
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`plain exit ${code}`);
  check();
  return { ms };
}

async function sandboxed() {
  const t0 = performance.now();
  const r = await sandbox.run({ argv: ['/box/main'], workDir: built.dir, stdin: { path: input }, stdout: { path: output }, stderr: 'ignore', limits });
  const ms = performance.now() - t0;
  if (r.status !== 'ok') throw new Error(`sandbox: ${r.status} ${r.reason ?? ''}`);
  check();
  return { ms, cpu: r.cpuMs, wall: r.wallMs };
}

const pct = (a, p) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))];
};
const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
const f = (x) => x.toFixed(2).padStart(7);

try {
  for (let i = 0; i < WARMUP; i++) {
    await plain();
    await sandboxed();
    await floor();
  }
  const B = [];
  const P = [];
  const S = [];
  const cpu = [];
  const inner = [];
  const diff = [];
  for (let i = 0; i < RUNS; i++) {
    const got = {};
    const order = [['p', plain], ['s', sandboxed], ['b', floor]];
    for (let k = 0; k < 3; k++) {
      const [name, fn] = order[(i + k) % 3];
      got[name] = await fn();
    }
    const { p, s, b } = got;
    B.push(b.ms);
    P.push(p.ms);
    S.push(s.ms);
    cpu.push(s.cpu);
    inner.push(s.wall);
    diff.push(s.ms - p.ms);
  }
  const [l1, l5, l15] = os.loadavg();
  console.log(`sandbox overhead: ${RUNS} runs each, interleaved (backend ${sandbox.backend}, bwrap ${sandbox.bwrap.version}, ${os.cpus().length} CPUs, load ${l1.toFixed(1)} ${l5.toFixed(1)} ${l15.toFixed(1)})`);
  console.log('                          median      p95     mean  (ms)');
  console.log(`bwrap floor             ${f(pct(B, 0.5))}  ${f(pct(B, 0.95))}  ${f(mean(B))}   (bwrap --unshare-all --ro-bind / / true)`);
  console.log(`plain spawn             ${f(pct(P, 0.5))}  ${f(pct(P, 0.95))}  ${f(mean(P))}`);
  console.log(`sandbox run             ${f(pct(S, 0.5))}  ${f(pct(S, 0.95))}  ${f(mean(S))}`);
  console.log(`  of which the program  ${f(pct(inner, 0.5))}  ${f(pct(inner, 0.95))}  ${f(mean(inner))}   (wall from the launch to the exit, as RunResult.wallMs)`);
  console.log(`  cgroup CPU charged    ${f(pct(cpu, 0.5))}  ${f(pct(cpu, 0.95))}  ${f(mean(cpu))}   (RunResult.cpuMs: program + bwrap's set-up)`);
  const over = pct(S, 0.5) - pct(P, 0.5);
  console.log(`overhead per test: median ${over >= 0 ? '+' : ''}${over.toFixed(2)} ms, p95 ${(pct(S, 0.95) - pct(P, 0.95)).toFixed(2)} ms, median of paired differences +${pct(diff, 0.5).toFixed(2)} ms`);
  const ratio = pct(S, 0.5) / pct(B, 0.5);
  console.log(`sandbox run / bwrap floor (medians): ${ratio.toFixed(2)}× (target ≤ 1.3×: ${ratio <= 1.3 ? 'met' : 'NOT met'}); mean ${(mean(S) / mean(B)).toFixed(2)}×`);
} finally {
  await built.box.dispose();
  await sandbox.close();
}
