// Compiles paid once: the compile time of a bits/stdc++.h C++ solution as judge-runner compiles it
// in the sandbox, side by side in each round:
//   plain  — the language table's g++ command, no precompiled header (before);
//   pch    — the same command with the runner's precompiled bits/stdc++.h (after; a new source
//            each round, so it is a real compile, not a cache hit);
//   cached — the same source again: taken from the compile cache, no compiler at all.
// The precompiled header is built once first (its build time is printed: paid once per runner,
// compiler and flags). Prints each round, the medians, the ratios plain / pch and plain / cached,
// and the load average at the start and the end. BENCH_ROUNDS (5) rounds; the order of plain and
// pch flips every round so that load from elsewhere hits both alike.
//
//   cd /work/main && pnpm build && node bench/compile-cache.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompileCache, compileFiles, compileProgram, loadLanguages, Sandbox } from '../packages/runner/dist/index.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(3)} s`;

const source = (tag) =>
  Buffer.from(
    `#include <bits/stdc++.h>\nusing namespace std;\n// ${tag}\n` +
      'int main() {\n  ios::sync_with_stdio(false);\n  long long a, b;\n  cin >> a >> b;\n' +
      '  vector<long long> v{a, b};\n  map<int, string> m{{1, "x"}};\n  cout << accumulate(v.begin(), v.end(), 0LL) << "\\n";\n}\n',
  );

async function timed(fn) {
  const t = performance.now();
  const c = await fn();
  const ms = performance.now() - t;
  await c.box.dispose();
  if (!c.ok) throw new Error(`the compile failed:\n${c.log}`);
  return { ms, c };
}

async function main() {
  const loadStart = load();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-compile-cache-'));
  fs.chmodSync(work, 0o711);
  const sandbox = await Sandbox.create({ workRoot: path.join(work, 'sandbox'), uidBase: 61590 });
  try {
    const cpp = loadLanguages().get('cpp');
    if (!cpp?.present) throw new Error('g++ is not installed');
    const cache = new CompileCache({ dir: path.join(work, 'cache'), log: (l) => console.log(`runner: ${l}`) });
    const compile = (tag) => compileProgram(cache, sandbox, cpp, [{ name: 'main.cpp', bytes: source(tag) }], 'main.cpp');
    const plain = (tag) => compileFiles(sandbox, cpp, [{ name: 'main.cpp', bytes: source(tag) }], 'main.cpp');
    const first = await timed(() => compile('warm-up'));
    if (first.c.pch !== 'bits/stdc++.h') throw new Error('the precompiled header was not used');
    console.log(`first compile, building the precompiled header on the way: ${s(first.ms)} (once per runner, compiler and flags)`);
    const rows = [];
    for (let r = 0; r < ROUNDS; r++) {
      const before = r % 2 === 0 ? await timed(() => plain(`plain ${r}`)) : undefined;
      const after = await timed(() => compile(`pch ${r}`));
      const beforeMs = before?.ms ?? (await timed(() => plain(`plain ${r}`))).ms;
      const hit = await timed(() => compile(`pch ${r}`));
      if (!hit.c.cached) throw new Error('the same source was compiled again');
      rows.push({ plain: beforeMs, pch: after.ms, cached: hit.ms });
      console.log(`round ${r + 1}: plain ${s(beforeMs)}, with the precompiled header ${s(after.ms)} (${(beforeMs / after.ms).toFixed(2)}×), from the cache ${s(hit.ms)}`);
    }
    const m = (k) => median(rows.map((x) => x[k]));
    console.log(
      `\nbits/stdc++.h solution, median of ${ROUNDS}: plain compile ${s(m('plain'))} (before), with the precompiled header ${s(m('pch'))} (after), ` +
        `plain / pch ${(m('plain') / m('pch')).toFixed(2)}×; an identical source from the compile cache ${s(m('cached'))}, plain / cached ${(m('plain') / m('cached')).toFixed(0)}×`,
    );
    console.log(`compile cache: ${cache.stats.compiles} compiled, ${cache.stats.hits} taken from the cache`);
    console.log(`load average (1, 5, 15 min): start ${loadStart}, end ${load()} (${os.cpus().length} CPUs)`);
  } finally {
    await sandbox.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
