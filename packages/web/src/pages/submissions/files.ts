import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { keys } from '../../api/keys';

/** Shown text is cut here: a page that holds megabytes of output helps nobody (the download has it all). */
export const SHOWN_CHARS = 256 * 1024;

/** A stored file as text (files never change, so it is fetched once). */
export function useFileText(fileId: string | undefined) {
  return useQuery({
    queryKey: keys.file(fileId ?? ''),
    enabled: !!fileId,
    staleTime: Infinity,
    queryFn: async () => new TextDecoder().decode(await call(ops.downloadFile, { params: { id: fileId! } })),
  });
}

/** What the runner's `details` attachment holds, as far as these pages read it. */
export interface TestResult {
  test: string;
  group: string;
  verdict: string;
  cpuMs?: number;
  wallMs?: number;
  memoryBytes?: number | null;
  score?: number;
  maxScore?: number | null;
  feedback?: string;
  fullFeedback?: boolean;
  counted?: false;
  output?: string;
}

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
