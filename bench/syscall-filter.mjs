// What the sandbox's system-call filter and a session test's own IPC namespace cost
// (native/seccomp.c, native/box.c): the same work through two sandboxes of this process, one as
// the runner has it and one with `syscallFilter: false` (no filter, no IPC namespace per test,
// the sandbox as it was before them), interleaved so that load from elsewhere hits both alike.
//
//   test phase   BENCH_RUNS tests of one session each: a trivial C program (reads a number,
//                prints it), timed from the request to the result (the per-test overhead)
//   runs         BENCH_RUNS/4 runs of their own each (a sandbox per run, as compiles)
//   syscalls     BENCH_HEAVY tests each of a program making 2,000,000 system calls: half that
//                the filter lets through at once (getppid), half that it inspects (fcntl)
//   compile      BENCH_HEAVY compiles each of the C program with gcc (the compile phase)
// Prints median and mean of each and the ratio filtered ÷ unfiltered (target: test phase ≤ 1.1).
//
//   cd /work/main && pnpm build && node bench/syscall-filter.mjs
//   env: BENCH_RUNS (default 200), BENCH_WARMUP (default 20), BENCH_HEAVY (default 10)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Sandbox, compile, loadLanguages } from '../packages/runner/dist/index.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
const HEAVY = Number(process.env.BENCH_HEAVY ?? 10);
const limits = { cpuMs: 5000, wallMs: 10000, memoryBytes: 256 << 20, pids: 64, outputBytes: 1 << 20 };
const ECHO = '#include <stdio.h>\nint main(void) { long x = 0; if (scanf("%ld", &x) != 1) return 1; printf("%ld\\n", x); return 0; }\n';
const CALLS =
  '#include <fcntl.h>\n#include <stdio.h>\n#include <unistd.h>\nint main(void) { long s = 0; for (int i = 0; i < 1000000; i++) s += getppid() + fcntl(0, F_GETFL); printf("%ld\\n", s > 0); return 0; }\n';

const c = loadLanguages().get('c');
if (!c?.present) throw new Error('needs gcc (the c language of config/languages.json)');

async function side(name, syscallFilter, uidBase) {
  const sandbox = await Sandbox.create({ syscallFilter, uidBase });
  const tmp = fs.mkdtempSync(path.join(sandbox.workRoot, 'bench-'));
  const build = async (what, code) => {
    fs.mkdirSync(path.join(tmp, `${what}-src`));
    fs.writeFileSync(path.join(tmp, `${what}-src`, 'main.c'), code);
    const b = await compile(sandbox, c, path.join(tmp, `${what}-src`), path.join(tmp, `${what}-bin`));
    if (!b.ok) throw new Error(b.log);
    return b.dir;
  };
  const echo = await build('echo', ECHO);
  const calls = await build('calls', CALLS);
  const input = path.join(tmp, 'in.txt');
  const output = path.join(tmp, 'out.txt');
  fs.writeFileSync(input, '4242\n');
  const io = { stdin: { path: input }, stdout: { path: output }, stderr: 'ignore' };
  const echoSession = sandbox.openSession({ argv: ['/box/main'], workDir: echo, limits });
  const callsSession = sandbox.openSession({ argv: ['/box/main'], workDir: calls, limits });
  const timed = async (fn, want) => {
    const t0 = performance.now();
    const r = await fn();
    const ms = performance.now() - t0;
    if (r.status !== 'ok') throw new Error(`${name}: ${r.status} ${r.reason ?? ''}`);
    const got = fs.readFileSync(output, 'utf8');
    if (got !== want) throw new Error(`${name}: wrong output ${JSON.stringify(got)}`);
    return { ms, cpu: r.cpuMs };
  };
  return {
    name,
    sandbox,
    test: () => timed(() => echoSession.run(io), '4242\n'),
    run: () => timed(() => sandbox.run({ argv: ['/box/main'], workDir: echo, limits, ...io }), '4242\n'),
    heavy: () => timed(() => callsSession.run(io), '1\n'),
    async compile() {
      const t0 = performance.now();
      const b = await compile(sandbox, c, path.join(tmp, 'echo-src'), fs.mkdtempSync(path.join(tmp, 'again-')));
      if (!b.ok) throw new Error(b.log);
      return { ms: performance.now() - t0 };
    },
    async close() {
      await echoSession.close();
      await callsSession.close();
      await sandbox.close();
    },
  };
}

const pct = (a, p) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))];
};
const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
const f = (x) => x.toFixed(2).padStart(8);

const on = await side('filtered', true, 60100);
const off = await side('unfiltered', false, 60110);
try {
  const sides = [on, off];
  /** n rounds of `kind` on both sides, their order alternating; the times (or CPU) of each side. */
  const measure = async (kind, n, key = 'ms') => {
    const got = { filtered: [], unfiltered: [] };
    for (let i = 0; i < n; i++) {
      for (const s of i % 2 ? sides : [...sides].reverse()) got[s.name].push((await s[kind]())[key]);
    }
    return got;
  };
  await measure('test', WARMUP);
  await measure('run', Math.ceil(WARMUP / 4));
  await measure('heavy', 1);
  const rows = [
    ['test phase (per test)', await measure('test', RUNS)],
    ['run of its own', await measure('run', Math.ceil(RUNS / 4))],
  ];
  const heavyWall = await measure('heavy', HEAVY);
  const heavyCpu = { filtered: [], unfiltered: [] };
  for (let i = 0; i < HEAVY; i++) for (const s of sides) heavyCpu[s.name].push((await s.heavy()).cpu);
  rows.push(['2M syscalls, wall', heavyWall], ['2M syscalls, cgroup CPU', heavyCpu], ['compile (gcc)', await measure('compile', HEAVY)]);
  const [l1, l5, l15] = os.loadavg();
  console.log(`syscall filter: ${RUNS} tests each, interleaved (backend ${on.sandbox.backend}, bwrap ${on.sandbox.bwrap.version}, ${os.cpus().length} CPUs, load ${l1.toFixed(1)} ${l5.toFixed(1)} ${l15.toFixed(1)})`);
  console.log('                            filtered          unfiltered        ratio filtered/unfiltered');
  console.log('                            median    mean    median    mean    median   mean   (ms)');
  for (const [label, g] of rows) {
    const a = g.filtered;
    const b = g.unfiltered;
    console.log(`${label.padEnd(26)}${f(pct(a, 0.5))}${f(mean(a))}${f(pct(b, 0.5))}${f(mean(b))}   ${(pct(a, 0.5) / pct(b, 0.5)).toFixed(3)}  ${(mean(a) / mean(b)).toFixed(3)}`);
  }
  const ratio = pct(rows[0][1].filtered, 0.5) / pct(rows[0][1].unfiltered, 0.5);
  console.log(`test phase: ${ratio.toFixed(3)}x of the unfiltered sandbox (target ≤ 1.1): ${ratio <= 1.1 ? 'met' : 'NOT met'}`);
} finally {
  await on.close();
  await off.close();
}
