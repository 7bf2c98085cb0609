/**
 * The programs a black-box probe of the judge sent, each in the real sandbox (bwrap, cgroups, the
 * cell and the session helper): ptrace of pid 1 and of the helper, process_vm_readv,
 * pidfd_getfd, perf_event_open, bpf, keyrings, signals at the helper, mounts and foreign socket
 * families, IPC objects left for the next test, and fds the judge was started with. Each is
 * refused by the system-call filter (native/seccomp.c) or the per-test IPC namespace
 * (native/box.c), gets a verdict, and leaves the session and its sandbox working.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Limits, RunResult } from '@judge/runner';
import { MiB, SANDBOX_USABLE, useCompiledSession } from './compiled-session.js';
import { HOSTILE_PROGRAM } from './hostile-program.js';

const LIMITS: Limits = { cpuMs: 2000, wallMs: 5000, memoryBytes: 256 * MiB, pids: 16, outputBytes: MiB };
const UID_BASE = 61800;
const EPERM = 1;
const ENOSYS = 38;
const EAFNOSUPPORT = 97;

describe.skipIf(!SANDBOX_USABLE)('sandbox: hostile programs of the probe', () => {
  const s = useCompiledSession({ tmpPrefix: 'judge-hostile-', program: HOSTILE_PROGRAM, uidBase: UID_BASE, limits: LIMITS });

  /** One test of the session, or with `alone` a run of its own (a sandbox per run, as compiles). */
  const run = async (input: string, alone = false): Promise<{ r: RunResult; out: string }> => {
    const t = s.nextTest(`${input}\n`);
    const r = alone
      ? await s.sandbox.run({ argv: ['/box/main'], workDir: s.built.dir, limits: LIMITS, ...t.io })
      : await s.session.run(t.io);
    return { r, out: t.out() };
  };
  /** Which sandbox the session's tests run in (its pid 1's start time). */
  const sandboxOf = async (): Promise<string> => {
    const { out } = await run('status');
    return /^sandbox (\d+)$/m.exec(out)![1]!;
  };

  it('every test runs under the filter and without capabilities, in a session and alone', async () => {
    for (const alone of [false, true]) {
      const { r, out } = await run('status', alone);
      expect(r.status).toBe('ok');
      expect(out).toMatch(/^Seccomp:\s+2$/m);
      expect(out).toMatch(/^CapEff:\s+0+$/m);
    }
  });

  it('ptrace of pid 1 and of the helper is refused; the session goes on in the same sandbox', async () => {
    const before = await sandboxOf();
    for (const alone of [false, true]) {
      const one = await run('ptrace1', alone);
      expect(one.r.status).toBe('ok');
      expect(one.out).toBe(`ptrace 1 refused ${EPERM}\n`);
    }
    const two = await run('ptrace2');
    expect(two.r.status).toBe('ok');
    expect(two.out).toBe(`ptrace 2 refused ${EPERM}\n`);
    expect(await sandboxOf()).toBe(before);
  });

  it('process_vm_readv, pidfd_getfd and pidfd_send_signal are refused', async () => {
    const vm = await run('vmread');
    expect(vm.out).toBe(`process_vm_readv 1 refused ${EPERM}\nprocess_vm_readv self refused ${EPERM}\n`);
    const pidfd = await run('pidfd');
    expect(pidfd.out).toBe(`pidfd_getfd refused ${EPERM}\npidfd_send_signal refused ${EPERM}\n`);
  });

  it('perf_event_open, bpf and the kernel keyrings are refused (in a run of its own too)', async () => {
    for (const alone of [false, true]) {
      expect((await run('perf', alone)).out).toBe(`perf_event_open refused ${EPERM}\n`);
      expect((await run('bpf', alone)).out).toBe(`bpf refused ${EPERM}\n`);
      expect((await run('keyctl', alone)).out).toBe(`keyctl refused ${ENOSYS}\nadd_key refused ${ENOSYS}\n`);
    }
  });

  it('no signal, limit or priority reaches the helper or pid 1; a program still signals itself', async () => {
    const before = await sandboxOf();
    const { r, out } = await run('signals');
    expect(r.status).toBe('ok');
    for (const call of ['kill 2', 'kill -2', 'kill -1', 'kill 1', 'tgkill 2', 'prlimit 2', 'setpriority user', 'F_SETSIG']) {
      expect(out).toContain(`${call} refused ${EPERM}\n`);
    }
    expect(out).toContain('kill self 0 done 0\n');
    // its own process group is only itself: it is killed, the helper is not
    const group = await run('group');
    expect(group.r.status).toBe('re');
    expect(await sandboxOf()).toBe(before);
  });

  it('no mount, namespace or foreign socket family; unix, inet and netlink route sockets work', async () => {
    const { out } = await run('mount');
    expect(out).toContain(`unshare refused ${EPERM}\n`);
    expect(out).toContain(`mount refused ${EPERM}\n`);
    expect(out).toContain(`socket vsock refused ${EAFNOSUPPORT}\n`);
    expect(out).toContain(`socket alg refused ${EAFNOSUPPORT}\n`);
    expect(out).toContain(`socket netlink audit refused ${EAFNOSUPPORT}\n`);
    expect(out).toMatch(/socket netlink route done \d+\n/);
    expect(out).toMatch(/socket unix done \d+\n/);
    expect(out).toMatch(/socket inet done \d+\n/);
  });

  it('the 32-bit and x32 system-call tables answer ENOSYS', async () => {
    for (const alone of [false, true]) {
      const { r, out } = await run('compat', alone);
      expect(r.status).toBe('ok');
      expect(out).toBe('i386 getpid refused\nx32 getpid refused\n');
    }
  });

  it('System V shared memory, message queues, semaphores and POSIX message queues do not survive into the next test', async () => {
    const before = await sandboxOf();
    const made = await run('ipc-make');
    expect(made.out).toMatch(/^shm done \d+\nmsg done \d+\nsem done \d+\nmq done \d+\n$/);
    const look = await run('ipc-look');
    const ENOENT = 2;
    expect(look.out).toBe(`shm refused ${ENOENT}\nmsg refused ${ENOENT}\nsem refused ${ENOENT}\nmq refused ${ENOENT}\n`);
    expect(await sandboxOf()).toBe(before);
  });

  it('a test sees no fd but its stdio', async () => {
    for (const alone of [false, true]) expect((await run('fds', alone)).out).toBe('fds 0 1 2\n');
  });

  it('an fd the runner was started with reaches no program, in a session or alone', async () => {
    const dist = fileURLToPath(new URL('../dist/index.js', import.meta.url));
    if (!fs.existsSync(dist)) throw new Error('needs the built package: pnpm build');
    const script = `
      import { Sandbox } from ${JSON.stringify(dist)};
      import fs from 'node:fs';
      const sb = await Sandbox.create({ uidBase: ${UID_BASE} }); // the slot uid that owns the built program
      const limits = ${JSON.stringify(LIMITS)};
      const out = {};
      for (const alone of [false, true]) {
        const io = { stdin: { path: ${JSON.stringify(path.join(s.tmp, 'fds.in'))} }, stdout: { path: ${JSON.stringify(s.tmp)} + '/fds-' + alone } };
        const spec = { argv: ['/box/main'], workDir: ${JSON.stringify(s.built.dir)}, limits };
        if (alone) await sb.run({ ...spec, ...io });
        else { const s = sb.openSession(spec); await s.run(io); await s.close(); }
        out[alone ? 'alone' : 'session'] = fs.readFileSync(${JSON.stringify(s.tmp)} + '/fds-' + alone, 'utf8');
      }
      await sb.close();
      console.log(JSON.stringify(out));`;
    fs.writeFileSync(path.join(s.tmp, 'fds.in'), 'fds\n');
    // fd 9 of the runner: an open pipe, not close-on-exec, as a launching shell's fd would be
    const stdio = ['ignore', 'pipe', 'inherit', 'ignore', 'ignore', 'ignore', 'ignore', 'ignore', 'ignore', 'pipe'] as const;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: [...stdio] });
    let text = '';
    child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(0);
    expect(JSON.parse(text)).toEqual({ session: 'fds 0 1 2\n', alone: 'fds 0 1 2\n' });
  }, 30_000);
});
