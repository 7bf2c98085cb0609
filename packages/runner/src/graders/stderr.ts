import type { RunResult } from '../sandbox/types.js';
import type { TestRun } from './grader.js';

/** How much of the start of a program's stderr the log shows. */
export const STDERR_LOG_CHARS = 1024;

/** The start of what the program wrote to stderr, for the log; undefined when it wrote nothing. */
export function stderrLog(run: RunResult): string | undefined {
  if (!run.stderrBytes) return undefined;
  const head = run.stderrHead ?? '';
  const shown = head.length > STDERR_LOG_CHARS ? `${head.slice(0, STDERR_LOG_CHARS)}\n…` : head;
  return `stderr (${run.stderrBytes} bytes):\n${shown.trimEnd()}`;
}

/**
 * The test's run with the start of its stderr added to the text the log may show (the judge shows
 * it only where the format reveals the test: a secret test's input could be echoed there).
 */
export function withStderr(r: TestRun): TestRun {
  const note = r.run && stderrLog(r.run);
  if (!note) return r;
  return { ...r, logText: [r.logText ?? r.feedback, note].filter(Boolean).join('\n') };
}
