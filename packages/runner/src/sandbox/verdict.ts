import { signalName } from './host.js';
import type { Limits, RunResult, RunStatus } from './types.js';

/** Why the runner killed a run, if it did. */
export type KillReason = 'tle' | 'wall' | 'ole' | 'user' | 'setup';

/** Final verdict in a fixed order: what killed the run first, then what it exceeded, then how it ended. */
export function decide(x: {
  limits: Limits;
  none: boolean;
  killedFor: KillReason | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  cpuMs: number;
  wallMs: number;
  memoryBytes: number | null;
  oomKills: number;
  pidsRefused: number;
  stdoutBytes: number;
  stderrBytes: number | undefined;
  stderrHead?: string;
  stderrTail: string | undefined;
  outOfMemory: { exitCode: number; stderr: string }[];
}): RunResult {
  // bwrap folds a signal n into 128+n; a kill of bwrap itself shows as the signal
  const sig = x.signal ?? (x.code !== null && x.code > 128 && x.code < 128 + 65 ? signalName(x.code - 128) : undefined);
  const base = {
    exitCode: x.code,
    cpuMs: x.cpuMs,
    wallMs: x.wallMs,
    memoryBytes: x.memoryBytes,
    stdoutBytes: x.stdoutBytes,
    ...(sig ? { signal: sig } : {}),
    ...(x.stderrBytes !== undefined ? { stderrBytes: x.stderrBytes } : {}),
    ...(x.stderrHead !== undefined ? { stderrHead: x.stderrHead } : {}),
    ...(x.stderrTail !== undefined ? { stderrTail: x.stderrTail } : {}),
  };
  const r = (status: RunStatus, reason?: string): RunResult => ({ status, ...base, ...(reason ? { reason } : {}) });
  const L = x.limits;
  const mib = (b: number): string => `${Math.round(b / 1048576)} MiB`;
  if (x.killedFor === 'tle' || (!x.none && x.cpuMs > L.cpuMs) || sig === 'SIGXCPU' || (x.none && sig === 'SIGKILL' && !x.killedFor && x.wallMs >= L.cpuMs)) {
    return r('tle', `CPU time limit exceeded (${L.cpuMs} ms)`);
  }
  if (x.killedFor === 'wall') return r('wall', `wall-clock limit exceeded (${L.wallMs} ms)`);
  if (x.oomKills > 0) return r('mle', `out of memory (limit ${mib(L.memoryBytes)})`);
  const tail = x.stderrTail ?? '';
  const hint = x.outOfMemory.find((h) => x.code === h.exitCode && new RegExp(h.stderr, 'm').test(tail));
  if (hint) {
    const line = tail.split('\n').find((s) => new RegExp(hint.stderr, 'm').test(s))?.trim();
    return r('mle', `out of memory (${line ? line.slice(0, 200) : `exit ${x.code}`})`);
  }
  // stderr is not output: only stdout (and files, through RLIMIT_FSIZE) count
  if (x.killedFor === 'ole' || x.stdoutBytes > L.outputBytes || sig === 'SIGXFSZ') return r('ole', `output limit exceeded (${L.outputBytes} bytes)`);
  if (x.killedFor === 'user') return r('re', 'killed by the runner');
  if (x.code !== 0 || x.signal) {
    let reason = sig ? `killed by ${sig}` : `exit code ${x.code}`;
    if (x.pidsRefused > 0) reason += `; process limit (${L.pids}) reached`;
    return r('re', reason);
  }
  return r('ok');
}
