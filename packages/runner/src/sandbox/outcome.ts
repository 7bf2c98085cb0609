/**
 * How a finished run becomes a RunResult, for a run of its own (run.ts) and for a test of a
 * session (session.ts) alike: stdio as the cell sees it, the wait status, stderr kept, the output
 * measured, the status decided.
 */
import fs from 'node:fs';
import type { CellExit, CellStdio } from './cell.js';
import type { CgroupStats } from './cgroup-common.js';
import { SandboxError } from './errors.js';
import { signalName } from './host.js';
import { StderrKeeper, type Meter } from './stdio.js';
import type { RunResult, RunSpec, Stdio } from './types.js';
import { decide, type KillReason } from './verdict.js';

/** A Stdio of the spec as the cell opens it, and how its size is told afterwards. */
export interface StdioTarget {
  io: CellStdio;
  path?: string;
  fd?: number;
  sizeBefore?: number;
}

export function cellStdio(s: Stdio | undefined, dir: 'in' | 'out'): StdioTarget {
  if (s === undefined || s === 'ignore') return { io: { kind: 'null' } };
  if (s === 'pipe') return { io: { kind: 'pipe' } };
  if ('path' in s) return { io: { kind: dir === 'in' ? 'read' : 'write', path: s.path }, path: s.path };
  // the caller's own fd: the cell opens the same file through /proc (appending, for output)
  const via = `/proc/${process.pid}/fd/${s.fd}`;
  let sizeBefore: number | undefined;
  try {
    const st = fs.fstatSync(s.fd);
    if (st.isFile()) sizeBefore = st.size;
  } catch {
    throw new SandboxError(`bad run spec: fd ${s.fd} is not open`);
  }
  return { io: { kind: dir === 'in' ? 'read' : 'append', path: via }, fd: s.fd, sizeBefore };
}

/** stderr is never output: the cell keeps its head and tail unless the caller streams it. */
export function stderrIo(spec: Pick<RunSpec, 'stderr' | 'outOfMemory'>): CellStdio {
  const ignored = (spec.stderr === undefined || spec.stderr === 'ignore') && !spec.outOfMemory?.length;
  return spec.stderr === 'pipe' ? { kind: 'pipe' } : ignored ? { kind: 'null' } : { kind: 'keep' };
}

function decodeStatus(status: number): { code: number | null; signal: NodeJS.Signals | null } {
  const sig = status & 0x7f;
  if (sig === 0) return { code: (status >> 8) & 0xff, signal: null };
  return { code: null, signal: (signalName(sig) as NodeJS.Signals | undefined) ?? 'SIGKILL' };
}

function measureStdout(t: StdioTarget): number | null {
  try {
    if (t.path !== undefined) return fs.statSync(t.path).size;
    if (t.fd !== undefined && t.sizeBefore !== undefined) return Math.max(0, fs.fstatSync(t.fd).size - t.sizeBefore);
  } catch {
    /* gone */
  }
  return null;
}

/** What was kept of stderr goes to the caller's file or fd, if it named one (after what the program wrote there). */
function keepStderr(spec: RunSpec, k: StderrKeeper): void {
  const to = spec.stderr;
  if (to === undefined || typeof to === 'string') return;
  if ('path' in to) fs.writeFileSync(to.path, k.keptText(), { mode: 0o600 });
  else if (k.bytes > 0) fs.writeSync(to.fd, k.keptText(), fs.fstatSync(to.fd).size);
}

/**
 * bwrap reports an exit code only once it executed the program: without one, the sandbox failed
 * to set up (its own words are on stderr), unless the program itself was not there to execute,
 * which is the program's failure as before.
 */
function assertStarted(exit: CellExit, keeper: StderrKeeper): void {
  if (exit.started) return;
  const said = `${keeper.headText()}\n${keeper.tailText()}`;
  if (/^bwrap: execvp /m.test(said)) return;
  const { code, signal } = decodeStatus(exit.status);
  const why = said.trim().split('\n').filter(Boolean).slice(-3).join(' | ') || 'no message';
  throw new SandboxError(`the sandbox did not start (bwrap ${signal ? `killed by ${signal}` : `exit ${code}`}): ${why}`);
}

export interface Finished {
  exit: CellExit;
  stats: CgroupStats | null;
  none: boolean;
  killedFor: KillReason | undefined;
  killedAt: number | undefined;
  wallMs: number;
  stdout: StdioTarget;
  outMeter: Meter | null;
  errKeeper: StderrKeeper | null;
  stderrIgnored: boolean;
}

export function outcome(spec: RunSpec, f: Finished): RunResult {
  const keeper = f.errKeeper ?? StderrKeeper.kept(f.exit.head, f.exit.tail, f.exit.stderrBytes);
  if (!f.killedFor) assertStarted(f.exit, keeper);
  const { code, signal } = decodeStatus(f.exit.status);
  if (!f.errKeeper && !f.stderrIgnored) keepStderr(spec, keeper);
  const st = f.stats;
  const cpuMs = st?.cpuNs != null ? Math.round(st.cpuNs / 1e5) / 10 : Math.round(f.wallMs * 10) / 10;
  const result = decide({
    limits: spec.limits,
    none: f.none,
    killedFor: f.killedFor,
    code,
    signal,
    cpuMs,
    wallMs: Math.round(f.wallMs * 10) / 10,
    memoryBytes: st?.peakBytes ?? null,
    oomKills: st?.oomKills ?? 0,
    pidsRefused: st?.pidsRefused ?? 0,
    stdoutBytes: f.outMeter ? f.outMeter.bytes : (measureStdout(f.stdout) ?? 0),
    ...(f.stderrIgnored ? { stderrBytes: undefined, stderrTail: undefined } : { stderrBytes: keeper.bytes, stderrHead: keeper.headText(), stderrTail: keeper.tailText() }),
    outOfMemory: spec.outOfMemory ?? [],
  });
  // a run the judge stopped ended when it was told to: its teardown may outlast the other side's reaction
  return { ...result, exitedAt: Math.min(f.exit.at, f.killedAt ?? f.exit.at) };
}
