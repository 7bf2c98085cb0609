/**
 * A cell: one long-lived judge-cell process (native/judge-cell.c) sitting in a set of cgroups the
 * sandbox reuses run after run. Every run the cell forks is born in those cgroups, so no run pays
 * for a cgroup migration or a fork of the runner's own large process. This module speaks the
 * cell's framed protocol; what a run means is decided in run.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SandboxError } from './errors.js';

const PROTOCOL = '4';

/** The cell binary, built from native/judge-cell.c by `pnpm build` (scripts/build-native.mjs). */
export const CELL_BINARY = fileURLToPath(new URL('../../native/judge-cell', import.meta.url));

/** How a run's stdio reaches the cell. */
export type CellStdio = { kind: 'null' } | { kind: 'read' | 'write' | 'append'; path: string } | { kind: 'pipe' } | { kind: 'keep' };

export interface CellRequest {
  uid: number | undefined;
  /** "cpu=S:H,fsize=N,..." */
  rlimits: string;
  stdio: [CellStdio, CellStdio, CellStdio];
  /** Bytes of the start of stderr kept (when stderr is 'keep'). */
  headBytes: number;
  /** bwrap and its arguments. */
  argv: string[];
}

export interface CellStarted {
  /** Host pid of bwrap. */
  pid: number;
  /** The cell's fds of the pipes the runner opens (-1 where there is none). */
  fds: [number, number, number];
}

export interface CellExit {
  /** Raw wait status of bwrap. */
  status: number;
  /** bwrap reported an exit code: the program was executed. */
  started: boolean;
  stderrBytes: number;
  head: Buffer;
  tail: Buffer;
  /**
   * performance.now() of the program's end: when the cell (or the helper in a session) saw it,
   * on the shared monotonic clock, not when the news arrived here after the teardown.
   */
  at: number;
  /** The largest resident set of the program (and what it waited for), from wait4; null where unknown. */
  maxRssBytes: number | null;
}

export function cellBinaryProblem(): string | null {
  try {
    fs.accessSync(CELL_BINARY, fs.constants.X_OK);
  } catch {
    return `the sandbox launcher ${CELL_BINARY} is not built: run \`pnpm build\` in the checkout (it needs a C compiler: apt-get install gcc)`;
  }
  // every source of the launcher counts: the filter table (seccomp.c) or the helper (box.c) alone may be newer
  const dir = path.dirname(CELL_BINARY);
  try {
    const built = fs.statSync(CELL_BINARY).mtimeMs;
    const sources = fs.readdirSync(dir).filter((f) => f.endsWith('.c') || f.endsWith('.h'));
    const newer = sources.find((f) => fs.statSync(path.join(dir, f)).mtimeMs > built);
    if (newer) return `the sandbox launcher ${CELL_BINARY} is older than its source ${newer}: run \`pnpm build\``;
  } catch {
    /* an installed copy without its sources */
  }
  return null;
}

/** Splits the cell's stdout into frames: u32 length, then NUL-separated fields. */
class FrameReader {
  private buf: Buffer = Buffer.alloc(0);
  constructor(private readonly onFrame: (frame: Buffer) => void) {}
  push(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    while (this.buf.length >= 4) {
      const len = this.buf.readUInt32LE(0);
      if (this.buf.length < 4 + len) return;
      const frame = this.buf.subarray(4, 4 + len);
      this.buf = this.buf.subarray(4 + len);
      this.onFrame(frame);
    }
  }
}

function fields(frame: Buffer, count: number): { text: string[]; rest: Buffer } {
  const text: string[] = [];
  let at = 0;
  for (let i = 0; i < count && at <= frame.length; i++) {
    const end = frame.indexOf(0, at);
    const stop = end < 0 ? frame.length : end;
    text.push(frame.subarray(at, stop).toString('utf8'));
    at = stop + 1;
  }
  return { text, rest: frame.subarray(Math.min(at, frame.length)) };
}

function text0(f: Buffer): string {
  const end = f.indexOf(0);
  return f.subarray(0, end < 0 ? f.length : end).toString('utf8');
}

/** performance.now() of a CLOCK_MONOTONIC instant in ns (libuv's hrtime is that clock). */
function sinceNow(ns: string | undefined): number {
  const now = performance.now();
  if (!ns || !/^\d+$/.test(ns) || ns === '0') return now;
  const ago = Number(process.hrtime.bigint() - BigInt(ns)) / 1e6;
  return ago >= 0 && ago < 3_600_000 ? now - ago : now;
}

function frame(parts: string[]): Buffer {
  const body = Buffer.from(`${parts.join('\0')}\0`, 'utf8');
  const head = Buffer.alloc(4);
  head.writeUInt32LE(body.length, 0);
  return Buffer.concat([head, body]);
}

function stdioText(s: CellStdio): string {
  switch (s.kind) {
    case 'null':
      return 'n';
    case 'pipe':
      return 'p';
    case 'keep':
      return 'k';
    default:
      return `${s.kind[0]}:${s.path}`;
  }
}

/**
 * What the emitters of a cell share: an 'error' listener for their whole life, which keeps the
 * failure. EventEmitter throws an 'error' nobody listens to, and that throw would end the whole
 * runner (a launcher that dies between two tests of a session, when no test waits); kept here
 * instead, whoever uses the run or session next sees it.
 */
abstract class CellEmitter extends EventEmitter {
  /** Why the launcher failed this run or session, once it did. */
  failure: Error | undefined;
  constructor() {
    super();
    this.on('error', (e: Error) => (this.failure ??= e));
  }
}

/** One run in a cell: 'started' (CellStarted), then 'exit' (CellExit) or 'error' (Error). */
export class CellRun extends CellEmitter {}

/** What a test of a session asks for: its rlimits, stdio and argv (inside the sandbox). */
export type TestRequest = Omit<CellRequest, 'uid'>;

/**
 * A sandbox kept open for test after test: 'started' once the helper in it is ready, then per
 * test an 'exit' (CellExit) or 'error'; 'closed' (wait status) when the sandbox is gone. A
 * session that never started ends with an 'exit' whose `started` is false.
 */
export class CellSession extends CellEmitter {
  sawStarted = false;
  /** 'closed' was emitted: the sandbox is gone. */
  ended = false;
  /** The sandbox died during a test: no test may follow in it. */
  lost = false;
  constructor(private readonly send: (parts: string[]) => void) {
    super();
  }
  test(r: TestRequest): void {
    this.send(['test', r.rlimits, ...r.stdio.map(stdioText), String(r.headBytes), '--', ...r.argv]);
  }
  /** The runner holds its ends of the test's pipes: the cell drops its own. */
  opened(): void {
    this.send(['opened']);
  }
  /** Ends the running test (the helper kills every process of it). */
  kill(): void {
    this.send(['kill']);
  }
  /** Closes the sandbox; 'closed' follows. */
  end(): void {
    this.send(['end']);
  }
}

export class Cell {
  readonly pid: number;
  private current: CellRun | CellSession | null = null;
  private dead: Error | null = null;
  private readonly proc: ChildProcess;

  private constructor(proc: ChildProcess, pid: number) {
    this.proc = proc;
    this.pid = pid;
  }

  /** Starts a cell that joins the given cgroup.procs files, and waits until it is in them. */
  static start(join: string[]): Promise<Cell> {
    const proc = spawn(CELL_BINARY, join, { stdio: ['pipe', 'pipe', 'pipe'], env: {} });
    let errText = '';
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (d: string) => (errText = (errText + d).slice(-2000)));
    proc.stdin!.on('error', () => {});
    return new Promise<Cell>((resolve, reject) => {
      let cell: Cell | undefined;
      const fail = (why: string): void => {
        const e = new SandboxError(`the sandbox launcher ${why}${errText.trim() ? `: ${errText.trim()}` : ''}`);
        if (!cell) reject(e);
        else cell.fail(e);
      };
      const reader = new FrameReader((f) => {
        if (cell) return cell.onFrame(f);
        const { text } = fields(f, 3);
        if (text[0] !== 'ready') return fail(`said ${text[0]} before it was ready`);
        if (text[1] !== PROTOCOL) return fail(`speaks protocol ${text[1]}, not ${PROTOCOL}: rebuild it with \`pnpm build\``);
        cell = new Cell(proc, Number(text[2]));
        resolve(cell);
      });
      proc.stdout!.on('data', (d: Buffer) => reader.push(d));
      proc.stdout!.on('error', () => {}); // the launcher's end is told by 'exit'
      proc.stderr!.on('error', () => {});
      proc.on('error', (e) => fail(`could not start (${e.message})`));
      proc.once('exit', (code, signal) => setImmediate(() => fail(`exited (${signal ?? `code ${code}`})`)));
    });
  }

  get alive(): boolean {
    return this.dead === null;
  }

  /** Starts one run; the cell runs one at a time. */
  run(r: CellRequest): CellRun {
    if (this.dead) throw this.dead;
    if (this.current) throw new SandboxError('the sandbox launcher is busy');
    const run = new CellRun();
    this.current = run;
    const uid = r.uid === undefined ? '-1' : String(r.uid);
    this.proc.stdin!.write(frame(['run', uid, uid, r.rlimits, ...r.stdio.map(stdioText), String(r.headBytes), '--', ...r.argv]));
    return run;
  }

  /** Opens a session: one sandbox (`argv`: bwrap running `judge-cell --box`) for many tests. */
  session(r: Omit<CellRequest, 'stdio' | 'headBytes'>): CellSession {
    if (this.dead) throw this.dead;
    if (this.current) throw new SandboxError('the sandbox launcher is busy');
    const session = new CellSession((parts) => {
      if (!this.dead && this.current === session) this.proc.stdin!.write(frame(parts));
    });
    this.current = session;
    const uid = r.uid === undefined ? '-1' : String(r.uid);
    this.proc.stdin!.write(frame(['session', uid, r.rlimits, '--', ...r.argv]));
    return session;
  }

  /** The runner holds its ends of the run's pipes now: the cell drops its own. */
  opened(): void {
    if (!this.dead) this.proc.stdin!.write(frame(['opened']));
  }

  /** Opens one of the cell's pipe ends by its fd number, the way a FIFO is opened. */
  openPipe(fd: number, forWriting: boolean): number {
    const flags = forWriting ? fs.constants.O_WRONLY | fs.constants.O_NONBLOCK : fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;
    return fs.openSync(`/proc/${this.pid}/fd/${fd}`, flags);
  }

  /** Kills the launcher; resolves once it is gone (its cgroups can be removed then). */
  close(): Promise<void> {
    this.dead ??= new SandboxError('the sandbox launcher was closed');
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return Promise.resolve();
    const gone = new Promise<void>((resolve) => this.proc.once('exit', () => resolve()));
    this.proc.stdin!.end();
    this.proc.kill('SIGKILL');
    return gone;
  }

  private fail(e: Error): void {
    this.dead ??= e;
    const run = this.current;
    this.current = null;
    // the sandbox of a session goes with its launcher (bwrap --die-with-parent): no test may follow
    if (run instanceof CellSession) {
      run.lost = true;
      run.ended = true;
    }
    run?.emit('error', e);
  }

  private onFrame(f: Buffer): void {
    const run = this.current;
    const { text, rest } = fields(f, text0(f) === 'exit' ? 8 : 6);
    if (!run) return;
    // a session outlives its tests' events; a run (or a session that never started) ends with one
    const ends = !(run instanceof CellSession) || !run.sawStarted;
    if (text[0] === 'started') {
      if (run instanceof CellSession) run.sawStarted = true;
      run.emit('started', { pid: Number(text[1]), fds: [Number(text[2]), Number(text[3]), Number(text[4])] } satisfies CellStarted);
    } else if (text[0] === 'lost') {
      if (run instanceof CellSession) run.lost = true;
    } else if (text[0] === 'piped') {
      run.emit('piped', { pid: -1, fds: [Number(text[2]), Number(text[3]), Number(text[4])] } satisfies CellStarted);
    } else if (text[0] === 'exit') {
      if (ends) this.current = null;
      const headLen = Number(text[4]);
      const exit: CellExit = {
        status: Number(text[1]),
        started: text[2] === '1',
        stderrBytes: Number(text[3]),
        head: Buffer.from(rest.subarray(0, headLen)),
        tail: Buffer.from(rest.subarray(headLen, headLen + Number(text[5]))),
        at: sinceNow(text[6]),
        maxRssBytes: Number(text[7]) > 0 ? Number(text[7]) * 1024 : null,
      };
      run.emit('exit', exit);
    } else if (text[0] === 'closed') {
      this.current = null;
      if (run instanceof CellSession) run.ended = true;
      run.emit('closed', Number(text[1]));
    } else if (text[0] === 'error') {
      if (ends) this.current = null;
      run.emit('error', new SandboxError(`the sandbox launcher could not start the run: ${text[1]}`));
    }
  }
}
