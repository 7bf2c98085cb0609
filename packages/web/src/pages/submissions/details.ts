import type { JudgeTestDetail } from '@judge/contract';

/** One test of the runner's `details` attachment. */
export type TestResult = JudgeTestDetail;

export interface Details {
  verdict?: string;
  limits?: { timeMs: number; memoryBytes: number; outputBytes: number };
  tests: TestResult[];
}

/** Reads a details attachment; anything that is not one reads as no tests. */
export function parseDetails(text: string | undefined): Details | undefined {
  if (text === undefined) return undefined;
  try {
    const d = JSON.parse(text) as Partial<Details>;
    return { ...d, tests: Array.isArray(d.tests) ? d.tests : [] };
  } catch {
    return undefined;
  }
}

/** The most CPU time and memory over the tests that ran. */
export function peaks(d: Details): { cpuMs?: number; memoryBytes?: number } {
  let cpuMs: number | undefined;
  let memoryBytes: number | undefined;
  for (const t of d.tests) {
    if (t.cpuMs !== undefined) cpuMs = Math.max(cpuMs ?? 0, t.cpuMs);
    if (typeof t.memoryBytes === 'number') memoryBytes = Math.max(memoryBytes ?? 0, t.memoryBytes);
  }
  return { ...(cpuMs !== undefined ? { cpuMs } : {}), ...(memoryBytes !== undefined ? { memoryBytes } : {}) };
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

export function formatMemory(b: number): string {
  return b < 1024 * 1024 ? `${Math.round(b / 1024)} KiB` : `${(b / 1024 / 1024).toFixed(1)} MiB`;
}
