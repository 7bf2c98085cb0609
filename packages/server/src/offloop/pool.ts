/**
 * Work on untrusted input that could run long or grow large (a printout's PDF, a statement's
 * conversion) runs here, on worker threads, never on the event loop that answers every request.
 * Each job has a time and a memory limit: a thread past its time is terminated, one past its
 * memory is stopped by V8 (Worker resourceLimits); either way the job fails with a typed
 * OffloopFailure and the server goes on. A few threads (sized to the machine) take jobs from one
 * queue; an idle thread is kept a while for the next job of the same kind, then let go.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { OffloopFailure } from './failure.js';

/** A kind of job: the module whose default export does it, and its limits. */
export interface JobSpec<I, O> {
  name: string;
  /** The job module's URL, next to the module that defines the spec (`new URL('./x-job.js', import.meta.url)`). */
  module: URL;
  timeoutMs: number;
  memoryMb: number;
  /** Only for the types: what the job takes and gives. */
  readonly _types?: (input: I) => O;
}

export const defineJob = <F extends (input: never) => unknown>(spec: Omit<JobSpec<Parameters<F>[0], Awaited<ReturnType<F>>>, '_types'>): JobSpec<Parameters<F>[0], Awaited<ReturnType<F>>> => spec;

interface Queued {
  spec: JobSpec<unknown, unknown>;
  input: unknown;
  resolve(output: unknown): void;
  reject(e: OffloopFailure): void;
}

interface Thread {
  worker: Worker;
  spec: JobSpec<unknown, unknown>;
  ready: boolean;
  current?: Queued;
  timer?: NodeJS.Timeout;
  idleTimer?: NodeJS.Timeout;
}

export interface PoolOptions {
  /** Threads working at once; by default one fewer than the cores (a core stays the event loop's), at least 1 and at most 4. */
  size?: number;
  /** Jobs waiting at most; beyond, a job fails at once as 'busy'. */
  queueMax?: number;
  /** An idle thread is ended after this long. */
  idleMs?: number;
  /** Loading a job module may take this long before the job's own time starts. */
  startMs?: number;
  /** Other limits for some kinds of job (by name): tests give small ones to see them enforced. */
  limits?: Record<string, { timeoutMs?: number; memoryMb?: number }>;
}

/**
 * Production runs dist/, where the entry is worker.js. Tests run the sources through vitest, whose
 * transform does not reach worker threads: there the thread first registers tsx's loader (a dev
 * dependency) and then imports worker.ts, so that tests exercise the very sources they check.
 */
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const ENTRY = new URL(FROM_SOURCES ? './worker.ts' : './worker.js', import.meta.url);
const SOURCE_BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
// niced before the loader starts, so that its threads and compiler processes yield as worker.ts does
try { require('node:os').setPriority(Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()), 10); } catch {}
import(workerData.tsx).then((tsx) => { tsx.register(); return import(workerData.entry); });
`;

/** Idle threads kept beyond `size`, so that each kind of job (printout, statement, package) keeps one. */
const IDLE_SPARE = 2;

function tsxApi(): string {
  const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
  return pathToFileURL(cjs.replace(/index\.cjs$/, 'index.mjs')).href;
}

export class BoundedPool {
  private readonly size: number;
  private readonly queueMax: number;
  private readonly idleMs: number;
  private readonly startMs: number;
  private readonly limits: NonNullable<PoolOptions['limits']>;
  private readonly queue: Queued[] = [];
  private readonly threads = new Set<Thread>();
  private closed = false;

  constructor(opts: PoolOptions = {}) {
    this.size = opts.size ?? Math.min(4, Math.max(1, availableParallelism() - 1));
    this.queueMax = opts.queueMax ?? 64;
    this.idleMs = opts.idleMs ?? 30_000;
    this.startMs = opts.startMs ?? 60_000;
    this.limits = opts.limits ?? {};
  }

  /** Runs one job; fails with OffloopFailure (timeout, memory, failed, crashed, busy). */
  run<I, O>(spec: JobSpec<I, O>, input: I): Promise<O> {
    if (this.closed) return Promise.reject(new OffloopFailure('crashed', 'the server is stopping'));
    if (this.queue.length >= this.queueMax) return Promise.reject(new OffloopFailure('busy', `${this.queue.length} jobs are waiting`));
    return new Promise<O>((resolve, reject) => {
      const own = this.limits[spec.name];
      const limited = own ? { ...spec, ...own } : spec;
      this.queue.push({ spec: limited as JobSpec<unknown, unknown>, input, resolve: resolve as (o: unknown) => void, reject });
      this.pump();
    });
  }

  /** Threads alive now (busy or idle), for tests. */
  get threadCount(): number {
    return this.threads.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const q of this.queue.splice(0)) q.reject(new OffloopFailure('crashed', 'the server is stopping'));
    await Promise.all([...this.threads].map((t) => this.end(t, new OffloopFailure('crashed', 'the server is stopping'))));
  }

  /** Gives waiting jobs to idle threads of their kind, or to new threads while there is room. */
  private pump(): void {
    while (this.queue.length) {
      const q = this.queue[0]!;
      const idle = [...this.threads].find((t) => t.ready && !t.current && t.spec.name === q.spec.name);
      if (idle) {
        this.queue.shift();
        this.dispatch(idle, q);
        continue;
      }
      if ([...this.threads].filter((t) => t.current).length >= this.size) return;
      // ending a thread joins it on the event loop (a pause the size of its heap), so a few idle
      // threads of other kinds are kept beside the working ones rather than ended to make room
      if (this.threads.size >= this.size + IDLE_SPARE) {
        const other = [...this.threads].find((t) => t.ready && !t.current);
        if (!other) return;
        void this.end(other);
      }
      this.queue.shift();
      this.spawn(q);
    }
  }

  private spawn(first: Queued): void {
    const { spec } = first;
    const options = {
      workerData: FROM_SOURCES ? { module: spec.module.href, entry: ENTRY.href, tsx: tsxApi() } : { module: spec.module.href },
      resourceLimits: { maxOldGenerationSizeMb: spec.memoryMb, maxYoungGenerationSizeMb: Math.min(32, Math.max(4, spec.memoryMb / 8)) },
      stdout: false,
      stderr: false,
    };
    const worker = FROM_SOURCES ? new Worker(SOURCE_BOOTSTRAP, { ...options, eval: true }) : new Worker(ENTRY, options);
    const t: Thread = { worker, spec, ready: false, current: first };
    this.threads.add(t);
    t.timer = setTimeout(() => void this.end(t, new OffloopFailure('timeout', `${spec.name} did not start within ${this.startMs} ms`)), this.startMs);
    worker.on('message', (m: { ready?: true; ok?: boolean; output?: unknown; message?: string }) => this.onMessage(t, m));
    worker.on('error', (e: Error & { code?: string }) => {
      const f = e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new OffloopFailure('memory', `${spec.name} ran out of its ${spec.memoryMb} MiB`) : new OffloopFailure('crashed', e.message);
      void this.end(t, f);
    });
    worker.on('exit', () => void this.end(t, new OffloopFailure('crashed', `the ${spec.name} thread stopped`)));
  }

  private onMessage(t: Thread, m: { ready?: true; ok?: boolean; output?: unknown; message?: string }): void {
    clearTimeout(t.timer);
    if (m.ready) {
      t.ready = true;
      const q = t.current;
      if (q) this.dispatch(t, q);
      else this.pump();
      return;
    }
    const q = t.current;
    t.current = undefined;
    if (q) {
      if (m.ok) q.resolve(m.output);
      else q.reject(new OffloopFailure('failed', m.message ?? 'the job failed'));
    }
    // an idle thread does not keep the process alive
    t.worker.unref();
    t.idleTimer = setTimeout(() => void this.end(t), this.idleMs);
    t.idleTimer.unref();
    this.pump();
  }

  private dispatch(t: Thread, q: Queued): void {
    clearTimeout(t.idleTimer);
    t.worker.ref();
    t.current = q;
    t.timer = setTimeout(() => void this.end(t, new OffloopFailure('timeout', `${t.spec.name} ran past ${t.spec.timeoutMs} ms`)), t.spec.timeoutMs);
    t.worker.postMessage(q.input);
  }

  /** Ends a thread; the job it held (if any) fails with `failure`. */
  private async end(t: Thread, failure?: OffloopFailure): Promise<void> {
    if (!this.threads.delete(t)) return;
    clearTimeout(t.timer);
    clearTimeout(t.idleTimer);
    const q = t.current;
    t.current = undefined;
    if (q) q.reject(failure ?? new OffloopFailure('crashed', `the ${t.spec.name} thread stopped`));
    await t.worker.terminate();
    this.pump();
  }
}
