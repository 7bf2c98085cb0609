/**
 * The real sandbox on this machine: real compilers, bwrap, cgroups. Nothing is mocked.
 * Every program is compiled once (beforeAll); the limits are small so the file stays fast.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HELLO_PROGRAMS,
  LIMIT_PROGRAMS,
  Sandbox,
  compile,
  loadLanguages,
  runCommand,
  type CompileResult,
  type Language,
  type Limits,
  type RunSpec,
} from '@judge/runner';

const MiB = 1024 * 1024;
const root = process.geteuid?.() === 0;
const table = loadLanguages();
const hasBwrap = Sandbox.findBwrap() !== null;
const lang = (id: string): Language => table.get(id)!;
const present = (id: string): boolean => table.get(id)?.present === true;

const LIMITS: Limits = { cpuMs: 1000, wallMs: 3000, memoryBytes: 256 * MiB, pids: 64, outputBytes: MiB };

/** Programs of the hostile and limit tests, by name: [language, source]. */
const PROGRAMS: Record<string, [string, string]> = {
  cppLoop: ['cpp', 'int main() { volatile unsigned long x = 0; for (;;) x++; }\n'],
  alloc: ['c', LIMIT_PROGRAMS.memory.c],
  flood: ['c', LIMIT_PROGRAMS.output.c],
  segv: ['c', 'int main(void) { volatile int *p = 0; *p = 1; return 0; }\n'],
  forkBomb: ['c', '#include <unistd.h>\nint main(void) { for (;;) fork(); }\n'],
  orphan: [
    'c',
    '#include <unistd.h>\n#include <stdio.h>\nint main(void) {\n  if (fork() == 0) { setsid(); execl("/usr/bin/sleep", "sleep", "100", (char *)0); _exit(1); }\n  usleep(50000);\n  puts("parent done");\n  return 0;\n}\n',
  ],
  pyAlloc: ['python3', "x = b'x' * (1 << 30)\nprint(len(x))\n"],
  javaOom: [
    'java',
    'public class Main {\n  public static void main(String[] a) {\n    long[][] keep = new long[4096][];\n    for (int i = 0; i < keep.length; i++) keep[i] = new long[1 << 20];\n    System.out.println(keep.length);\n  }\n}\n',
  ],
  jsOom: ['javascript', 'const keep = [];\nfor (;;) keep.push(new Array(1 << 20).fill(1.5));\n'],
  net: [
    'python3',
    'import socket, sys\nfor host, port in [("1.1.1.1", 53), ("127.0.0.1", int(sys.argv[1]))]:\n    try:\n        socket.create_connection((host, port), timeout=2).close()\n        print("connected", host)\n    except OSError as e:\n        print("failed", host, e.errno)\n',
  ],
  writer: [
    'python3',
    'import sys\nfor p in sys.argv[1:]:\n    try:\n        open(p, "w").write("pwned")\n        print("wrote", p)\n    except OSError as e:\n        print("refused", p, e.errno)\n',
  ],
  interactive: ['python3', 'import sys\nfor line in sys.stdin:\n    print(int(line) + 1, flush=True)\n'],
};

let sandbox: Sandbox;
let tmp: string;
const built: Record<string, CompileResult> = {};
const hello: Record<string, CompileResult> = {};
let seq = 0;

function uidsProcesses(uid: number): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const m = /^Uid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${d}/status`, 'utf8'));
      if (m && Number(m[1]) === uid) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

async function build(name: string, id: string, code: string): Promise<CompileResult> {
  const src = fs.mkdtempSync(path.join(tmp, `${name}-src-`));
  const l = lang(id);
  fs.writeFileSync(path.join(src, l.sourceFile.replace('{entry}', 'Main')), code);
  const c = await compile(sandbox, l, src, path.join(tmp, `${name}-bin`));
  if (!c.ok) throw new Error(`${name} does not compile:\n${c.log}`);
  return c;
}

/** Runs a built program with files for stdin/stdout/stderr; returns the result and the outputs. */
async function runBuilt(name: string, limits: Limits = LIMITS, extra: Partial<RunSpec> & { input?: string; args?: string[] } = {}) {
  const c = built[name] ?? hello[name]!;
  const l = lang(PROGRAMS[name]?.[0] ?? name);
  const n = ++seq;
  const stdin = path.join(tmp, `io-${n}.in`);
  const stdout = path.join(tmp, `io-${n}.out`);
  const stderr = path.join(tmp, `io-${n}.err`);
  fs.writeFileSync(stdin, extra.input ?? '');
  const cmd = runCommand(l, { memoryBytes: limits.memoryBytes, entry: c.entry });
  const { input: _i, args, ...rest } = extra;
  const result = await sandbox.run({
    ...cmd,
    argv: [...cmd.argv, ...(args ?? [])],
    workDir: c.dir,
    stdin: { path: stdin },
    stdout: { path: stdout },
    stderr: { path: stderr },
    limits,
    ...rest,
  });
  return { result, stdout: fs.readFileSync(stdout, 'utf8'), stderr: fs.readFileSync(stderr, 'utf8') };
}

function runDirs(): string[] {
  // the backend's instance directories must hold no run-* directory once a run is over
  return sandbox
    .describeBackend()
    .split(', ')
    .filter((d) => d.startsWith('/sys/fs/cgroup'))
    .flatMap((d) => fs.readdirSync(d).filter((n) => n.startsWith('run-')).map((n) => `${d}/${n}`));
}

const sandboxed = describe.skipIf(!hasBwrap);
const uidBase = 63000 + Math.floor(Math.random() * 1000) * 2; // below 65534 (nobody); above the fixed ranges of the end-to-end and browser tests (60000-62999)

// one sandbox (two slots) and every program built once for the whole file
beforeAll(async () => {
  if (!hasBwrap) return;
  sandbox = await Sandbox.create({ slots: 2, uidBase });
  tmp = fs.mkdtempSync(path.join(sandbox.workRoot, 'test-'));
  const jobs: Promise<void>[] = [];
  for (const l of table.present()) {
    const code = HELLO_PROGRAMS[l.id];
    if (code) jobs.push(build(`hello-${l.id}`, l.id, code).then((c) => void (hello[l.id] = c)));
  }
  for (const [name, [id, code]] of Object.entries(PROGRAMS)) {
    if (present(id)) jobs.push(build(name, id, code).then((c) => void (built[name] = c)));
  }
  await Promise.all(jobs);
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
});

sandboxed('sandbox', () => {
  it('reports its backend and caveats', () => {
    expect(['cgroup-v1', 'cgroup-v2']).toContain(sandbox.backend);
    expect(sandbox.caveats().length).toBeGreaterThan(0);
  });

  describe('hello in every language present', () => {
    for (const l of table.languages.values()) {
      it.skipIf(!l.present || !HELLO_PROGRAMS[l.id])(`${l.id}: compiles and echoes stdin`, async () => {
        const { result, stdout } = await runBuilt(l.id, { ...LIMITS, cpuMs: 5000, wallMs: 10000 }, { input: 'hello judge\n1 2 3\n' });
        expect(result.status).toBe('ok');
        expect(stdout).toBe('hello judge\n1 2 3\n');
        expect(result.memoryBytes).toBeGreaterThan(0);
      });
    }
  });

  it('pipes drive an interactive program', async () => {
    const c = built.interactive!;
    const p = sandbox.start({ ...runCommand(lang('python3'), { memoryBytes: LIMITS.memoryBytes }), workDir: c.dir, stdin: 'pipe', stdout: 'pipe', limits: LIMITS });
    let out = '';
    p.stdout!.setEncoding('utf8');
    const got = new Promise<void>((resolve) =>
      p.stdout!.on('data', (d: string) => {
        out += d;
        if (out === '2\n') {
          p.stdin!.write('41\n');
        } else if (out === '2\n42\n') {
          p.stdin!.end();
          resolve();
        }
      }),
    );
    p.stdin!.write('1\n');
    await got;
    const r = await p.result;
    expect(r.status).toBe('ok');
    expect(out).toBe('2\n42\n');
  });
});

sandboxed('sandbox: limits', () => {
  it('a compilation error is not ok and carries the compiler output', async () => {
    const src = fs.mkdtempSync(path.join(tmp, 'ce-'));
    fs.writeFileSync(path.join(src, 'main.c'), 'int main(void) { return nope; }\n');
    const c = await compile(sandbox, lang('c'), src, path.join(tmp, 'ce-bin'));
    expect(c.ok).toBe(false);
    expect(c.log).toMatch(/nope/);
    expect(c.log).toMatch(/error/);
  });

  it('a C++ infinite loop is tle near the CPU limit', async () => {
    // a wall limit far above the CPU limit: a loaded machine may give the loop a third of a core
    const { result } = await runBuilt('cppLoop', { ...LIMITS, wallMs: 20_000 });
    expect(result.status).toBe('tle');
    expect(result.cpuMs).toBeGreaterThanOrEqual(1000);
    expect(result.cpuMs).toBeLessThan(1500); // the 50 ms watchdog, not RLIMIT_CPU (2 s)
  });

  it('sleeping forever is stopped by the wall clock', async () => {
    const box = await sandbox.prepareBox();
    const r = await sandbox.run({ argv: ['/usr/bin/sleep', '1000'], workDir: box.path, limits: { ...LIMITS, wallMs: 700 } });
    expect(r.status).toBe('wall');
    expect(r.wallMs).toBeGreaterThanOrEqual(700);
    expect(r.wallMs).toBeLessThan(1500);
    expect(r.cpuMs).toBeLessThan(100);
    await box.dispose();
  });

  it('1 GiB of malloc under 256 MiB is mle', async () => {
    const { result } = await runBuilt('alloc');
    expect(result.status).toBe('mle');
    expect(result.memoryBytes).toBeGreaterThan(200 * MiB);
    expect(result.memoryBytes).toBeLessThanOrEqual(256 * MiB);
  });

  it('an output flood is ole, to a file and to a pipe', async () => {
    const { result } = await runBuilt('flood');
    expect(result.status).toBe('ole');
    expect(result.stdoutBytes).toBeLessThanOrEqual(MiB + 1);

    const c = built.flood!;
    const p = sandbox.start({ argv: ['/box/main'], workDir: c.dir, stdout: 'pipe', limits: LIMITS });
    let seen = 0;
    p.stdout!.on('data', (d: Buffer) => (seen += d.length));
    const r = await p.result;
    expect(r.status).toBe('ole');
    expect(r.stdoutBytes).toBeGreaterThan(MiB);
    expect(seen).toBeLessThanOrEqual(MiB);
  });

  it('a segfault is re naming the signal', async () => {
    const { result } = await runBuilt('segv');
    expect(result.status).toBe('re');
    expect(result.exitCode).toBe(139);
    expect(result.signal).toBe('SIGSEGV');
    expect(result.reason).toMatch(/SIGSEGV/);
  });

  it.skipIf(!present('python3'))('python allocating 1 GiB is mle', async () => {
    const { result } = await runBuilt('pyAlloc');
    expect(result.status).toBe('mle');
  });

  it.skipIf(!present('java'))('a Java heap OutOfMemoryError is mle', async () => {
    const { result, stderr } = await runBuilt('javaOom', { ...LIMITS, cpuMs: 5000, wallMs: 10000 });
    expect(result.status).toBe('mle');
    expect(stderr).toMatch(/OutOfMemoryError/);
  });

  it.skipIf(!present('javascript'))('a V8 heap out of memory is mle', async () => {
    const { result } = await runBuilt('jsOom', { ...LIMITS, cpuMs: 5000, wallMs: 10000 });
    expect(result.status).toBe('mle');
  });
});

sandboxed('sandbox: hostile programs', () => {
  it('a fork bomb is contained and leaves nothing behind', async () => {
    const { result } = await runBuilt('forkBomb');
    expect(['tle', 're', 'wall']).toContain(result.status);
    expect(runDirs()).toEqual([]);
    expect(uidsProcesses(sandbox.uidOf(built.forkBomb!.box.slot))).toEqual([]);
    // the host is fine: we can still start processes
    const box = await sandbox.prepareBox();
    expect((await sandbox.run({ argv: ['/usr/bin/true'], workDir: box.path, limits: LIMITS })).status).toBe('ok');
  });

  it('the network is unreachable, even the host loopback', async () => {
    const server = net.createServer((s) => s.end('hi'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const { result, stdout } = await runBuilt('net', LIMITS, { args: [String(port)] });
      expect(result.status).toBe('ok');
      expect(stdout).toMatch(/failed 1\.1\.1\.1/);
      expect(stdout).toMatch(/failed 127\.0\.0\.1/);
      expect(stdout).not.toMatch(/connected/);
    } finally {
      server.close();
    }
  });

  it('host files outside /box cannot be read: /etc/shadow, a runner key', async () => {
    const secretDir = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-secret-'));
    fs.chmodSync(secretDir, 0o755);
    const key = path.join(secretDir, 'runner.key');
    fs.writeFileSync(key, 'PRIVATE KEY 1234', { mode: 0o644 });
    const box = await sandbox.prepareBox();
    const out = path.join(tmp, 'secret.out');
    try {
      const r = await sandbox.run({
        argv: ['/bin/sh', '-c', `cat /etc/shadow; cat ${key}; cat /root/.ssh/* ; ls /home ${process.cwd()}; true`],
        workDir: box.path,
        stdout: { path: out },
        stderr: { path: out + '.err' },
        limits: LIMITS,
      });
      expect(r.status).toBe('ok');
      expect(fs.readFileSync(out, 'utf8')).toBe('');
      const err = fs.readFileSync(out + '.err', 'utf8');
      expect(err).toMatch(/\/etc\/shadow: No such file/);
      expect(err).toMatch(/runner\.key: No such file/);
    } finally {
      fs.rmSync(secretDir, { recursive: true, force: true });
      await box.dispose();
    }
  });

});

sandboxed('sandbox: hostile programs, writes and processes', () => {
  it('nothing outside /box can be written; a read-only /box neither', async () => {
    const c = built.writer!;
    const targets = ['/pwn', '/usr/pwn', '/etc/pwn', '/box/../pwn', '/dev/pwn', '/proc/sys/kernel/hostname', '/box/pwn', '/tmp/ok'];
    const { result, stdout } = await runBuilt('writer', LIMITS, { args: targets });
    expect(result.status).toBe('ok');
    for (const t of targets.slice(0, -1)) expect(stdout).toContain(`refused ${t}`);
    expect(stdout).toContain('wrote /tmp/ok'); // the private /tmp
    expect(fs.existsSync(path.join(c.dir, 'pwn'))).toBe(false);
    expect(fs.existsSync('/usr/pwn')).toBe(false);
    // a writable /box takes writes, and only there
    const box = await sandbox.prepareBox();
    const r = await sandbox.run({ argv: ['/bin/sh', '-c', 'echo hi > /box/out.txt'], workDir: box.path, writable: true, limits: LIMITS });
    expect(r.status).toBe('ok');
    expect(fs.readFileSync(path.join(box.path, 'out.txt'), 'utf8')).toBe('hi\n');
    await box.dispose();
  });

  it('a child left behind is killed when the run ends', async () => {
    const { result, stdout } = await runBuilt('orphan');
    expect(result.status).toBe('ok');
    expect(stdout).toBe('parent done\n');
    expect(result.wallMs).toBeLessThan(2000);
    expect(uidsProcesses(sandbox.uidOf(built.orphan!.box.slot))).toEqual([]);
    expect(runDirs()).toEqual([]);
  });

  it.runIf(root)('runs as the slot uid, without capabilities, with a clean environment', async () => {
    const box = await sandbox.prepareBox();
    const out = path.join(tmp, 'id.out');
    const r = await sandbox.run({
      argv: ['/bin/sh', '-c', 'cat /proc/self/status | grep -E "^(Uid|CapEff)"; tr "\\0" "\\n" < /proc/1/environ; hostname'],
      workDir: box.path,
      stdout: { path: out },
      limits: LIMITS,
    });
    expect(r.status).toBe('ok');
    const text = fs.readFileSync(out, 'utf8');
    expect(text).toMatch(/CapEff:\s+0+\n/);
    expect(text).toMatch(/^PATH=\/usr\/bin:\/bin$/m);
    expect(text).not.toMatch(/HOME=\/root|JUDGE|VITEST/);
    expect(text).toMatch(/^judge$/m);
    // the box belongs to the slot's uid on the host
    expect(fs.statSync(box.path).uid).toBe(sandbox.uidOf(box.slot));
    await box.dispose();
    expect(fs.existsSync(box.path)).toBe(false);
  });
});

sandboxed('sandbox: close', () => {
  it('close() kills what still runs and removes its cgroups and boxes', async () => {
    const base = uidBase + 30;
    const sb = await Sandbox.create({ uidBase: base });
    const box = await sb.prepareBox();
    const p = sb.start({ argv: ['/bin/sh', '-c', 'sleep 100 & sleep 100'], workDir: box.path, limits: LIMITS });
    // both sleeps are running (on a loaded machine the start takes longer than any fixed pause)
    await expect.poll(() => uidsProcesses(base).length, { timeout: 15_000, interval: 50 }).toBeGreaterThanOrEqual(2);
    const dirs = sb.describeBackend().split(', ');
    await sb.close();
    const r = await p.result;
    expect(r.status).toBe('re');
    expect(r.reason).toMatch(/killed by the runner/);
    expect(uidsProcesses(base)).toEqual([]);
    for (const d of dirs) expect(fs.existsSync(d)).toBe(false);
    expect(fs.existsSync(box.path)).toBe(false);
    expect(fs.existsSync(sb.workRoot)).toBe(false);
    expect(() => sb.start({ argv: ['/usr/bin/true'], workDir: tmp, limits: LIMITS })).toThrow(/closed/);
  });

  it.runIf(root)('killing the runner leaves no sandboxed process behind', async () => {
    const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    if (!fs.existsSync(dist)) return; // needs the built package (tsc -b packages/runner)
    const base = uidBase + 10;
    const script = `
      import { Sandbox } from ${JSON.stringify(dist)};
      const sb = await Sandbox.create({ uidBase: ${base} });
      const box = await sb.prepareBox();
      const p = sb.start({ argv: ['/bin/sh', '-c', 'sleep 100 & sleep 100'], workDir: box.path, limits: { cpuMs: 5000, wallMs: 60000, memoryBytes: 64 << 20, pids: 16, outputBytes: 1 << 20 } });
      setTimeout(() => console.log(JSON.stringify({ workRoot: sb.workRoot, cgroups: sb.describeBackend().split(', ') })), 300);
      await p.result;`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const started = await new Promise<{ workRoot: string; cgroups: string[] }>((resolve) =>
      child.stdout!.on('data', (d: Buffer) => resolve(JSON.parse(d.toString()) as { workRoot: string; cgroups: string[] })),
    );
    // both sleeps run before the runner dies (a loaded machine starts them later than 300 ms)
    await expect.poll(() => uidsProcesses(base).length, { timeout: 15_000, interval: 50 }).toBeGreaterThanOrEqual(2);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // nothing of the dead runner's box may stay running (judge-cell.c ties each run to its runner)
    await expect.poll(() => uidsProcesses(base), { timeout: 15_000, interval: 50 }).toEqual([]);
    // the next start sweeps the cgroups a killed runner left
    fs.rmSync(started.workRoot, { recursive: true, force: true });
    await (await Sandbox.create({ uidBase: base })).close();
    for (const d of started.cgroups) expect(fs.existsSync(d)).toBe(false);
  });
});

sandboxed('backend none (rlimits only)', () => {
  let insecure: Sandbox;
  const noneBase = uidBase + 20;
  beforeAll(async () => {
    insecure = await Sandbox.create({ backend: 'none', insecureNoCgroup: true, uidBase: noneBase, workRoot: path.join(tmp, 'none') });
  });
  afterAll(async () => {
    await insecure?.close();
  });
  const runNone = async (name: string, limits: Limits = LIMITS) => {
    const c = built[name]!;
    const l = lang(PROGRAMS[name]![0]);
    // the box belongs to the other sandbox's slot uid: run from a copy in a box of this one
    const box = await insecure.prepareBox();
    for (const f of fs.readdirSync(c.dir)) fs.copyFileSync(path.join(c.dir, f), path.join(box.path, f));
    fs.chmodSync(box.path, 0o755);
    const r = await insecure.run({ ...runCommand(l, { memoryBytes: limits.memoryBytes, entry: c.entry }), workDir: box.path, stdout: { path: path.join(tmp, `none-${name}.out`) }, limits });
    await box.dispose();
    return r;
  };

  it('is refused without the insecure flag, saying what it cannot enforce', async () => {
    await expect(Sandbox.create({ backend: 'none' })).rejects.toThrow(/cannot enforce a memory limit.*--insecure-no-cgroup/s);
    expect(insecure.backend).toBe('none');
    expect(insecure.caveats().join('\n')).toMatch(/RLIMIT_AS/);
  });

  it('enforces CPU, output and (for C, C++, Python) memory with rlimits', async () => {
    const loop = await runNone('cppLoop', { ...LIMITS, wallMs: 20_000 });
    expect(loop.status).toBe('tle');
    expect(loop.signal).toBe('SIGXCPU');
    expect((await runNone('flood')).status).toBe('ole');
    if (present('python3')) expect((await runNone('pyAlloc')).status).toBe('mle');
    expect((await runNone('segv')).status).toBe('re');
  });

  it.runIf(root)('contains a fork bomb with RLIMIT_NPROC and leaves nothing behind', async () => {
    const r = await runNone('forkBomb', { ...LIMITS, wallMs: 2000 });
    expect(['tle', 'wall', 're']).toContain(r.status);
    for (let i = 0; i < 50 && uidsProcesses(noneBase).length > 0; i++) await new Promise((res) => setTimeout(res, 20));
    expect(uidsProcesses(noneBase)).toEqual([]);
  });
});
