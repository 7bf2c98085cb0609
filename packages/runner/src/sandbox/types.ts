/**
 * The sandbox's contract with the rest of the runner: what a run asks for and what it reports.
 * Every untrusted program (compilers, submissions, custom validators, interactors) runs through it.
 */

export interface Limits {
  /** CPU time of the whole process tree, all threads. */
  cpuMs: number;
  /** Wall-clock time; a sleeping or blocked program is stopped here. */
  wallMs: number;
  /** Memory of the whole process tree (cgroup: anonymous memory plus page cache it faulted in). */
  memoryBytes: number;
  /** Processes and threads at once. */
  pids: number;
  /** Largest stdout and any single file the program writes (stderr is not output: never limited). */
  outputBytes: number;
}

/** A host path or an already open file descriptor; `pipe` hands a stream to the caller (interactive problems). */
export type Stdio = { path: string } | { fd: number } | 'pipe' | 'ignore';

export interface Mount {
  /** Host path. */
  host: string;
  /** Absolute path inside the sandbox. */
  box: string;
  writable?: boolean;
}

export interface RunSpec {
  /** argv inside the sandbox; argv[0] is an absolute path or found on PATH (/usr/bin:/bin). */
  argv: string[];
  /** Host directory mounted at /box (the working directory). */
  workDir: string;
  /** The program may write in /box (compilers, submissions that write files); read-only otherwise. */
  writable?: boolean;
  mounts?: Mount[];
  stdin?: Stdio;
  stdout?: Stdio;
  /**
   * stderr is read by the runner through a pipe whatever it is given as: counted, never limited,
   * its first `stderrKeepBytes` and last 4 KiB kept (in the result; a file or fd given here gets
   * them once the run ends, with a note of how much was left out).
   */
  stderr?: Stdio;
  /** How much of the start of stderr is kept (default 4 KiB). */
  stderrKeepBytes?: number;
  limits: Limits;
  /** Extra environment; the sandbox starts from PATH, HOME=/box and LANG only. */
  env?: Record<string, string>;
  /**
   * Without cgroups (backend `none`) limit memory with RLIMIT_AS too. Only for programs whose
   * runtime tolerates it (C, C++, Python); never for the JVM or Node, which reserve far more
   * address space than they use. Ignored by the cgroup backends.
   */
  addressSpaceLimit?: boolean;
  /**
   * How the program's runtime reports running out of memory on its own (before the kernel kills
   * it): an exit code plus a regular expression (multi-line) that the end of its stderr matches,
   * e.g. Java's `OutOfMemoryError` (exit 3 with -XX:+ExitOnOutOfMemoryError) or V8's "heap out of
   * memory" (exit 134). A match turns the run into `mle`. The language table provides these.
   */
  outOfMemory?: { exitCode: number; stderr: string }[];
  /** RLIMIT_NOFILE (default 64). */
  openFiles?: number;
}

/** How a run ended, in the order the verdict is decided: tle, wall, mle, ole, re, ok. */
export type RunStatus = 'ok' | 'tle' | 'wall' | 'mle' | 'ole' | 're';

export interface RunResult {
  status: RunStatus;
  /** Exit code (bwrap folds a signal n into 128+n). */
  exitCode: number | null;
  cpuMs: number;
  wallMs: number;
  /** Peak memory, where the backend can measure it. */
  memoryBytes: number | null;
  /** Bytes written to stdout (counted for pipes, the file size for files). */
  stdoutBytes: number;
  /** A short reason for re/mle/ole (e.g. "killed by SIGSEGV", "out of memory"). */
  reason?: string;
  /** The signal that ended the program (from bwrap's 128+n exit code, or a kill of the sandbox). */
  signal?: string;
  /** Bytes written to stderr, unless it was ignored. */
  stderrBytes?: number;
  /** The start of stderr (at most `stderrKeepBytes`), unless it was ignored, for logs. */
  stderrHead?: string;
  /** The end of stderr (at most 4 KiB), unless it was ignored, for messages and logs. */
  stderrTail?: string;
  /**
   * performance.now() when the sandbox's process was seen to exit (or, if the judge stopped it, when
   * it was told to), before the cgroup and pipes were read: which of two runs ended first (an interactive pair) is decided by this, not by when their
   * results arrived, which teardown delays by different amounts on a loaded machine.
   */
  exitedAt?: number;
}

/** A run in progress whose stdio the caller drives (interactive problems pipe two of them together). */
export interface RunningProgram {
  stdin: NodeJS.WritableStream | null;
  stdout: NodeJS.ReadableStream | null;
  result: Promise<RunResult>;
  kill(): void;
  /** stderr when it was asked for as 'pipe' (counted, never limited). */
  stderr?: NodeJS.ReadableStream | null;
}

/** Which kernel mechanism enforces and measures limits. `none` enforces memory and processes only roughly. */
export type BackendKind = 'cgroup-v1' | 'cgroup-v2' | 'none';
