import { z } from 'zod';
import { Timestamp } from '../wire.js';
import { JudgingMaxima } from './judging.js';

/**
 * Sample runs (docs/sample-runs in docs/web-pages.md "Run on samples"): a participant's code judged on the
 * problem's sample tests only. Never a submission: no penalty, not in standings, not counted against
 * limits, kept for a short while (SAMPLE_RUN_KEEP_SECONDS) and shown to its author only.
 */

/** How long a finished sample run is kept (then the retention worker removes it). */
export const SAMPLE_RUN_KEEP_SECONDS = 3600;
/** Each text a sample result carries (input, expected, output, feedback) is cut to this many characters. */
export const SAMPLE_TEXT_CHARS = 4096;
/** The compiler's output a sample run carries. */
export const SAMPLE_COMPILE_CHARS = 16384;
/** Samples a run reports at most. */
export const SAMPLES_MAX = 100;

const SampleFileName = z.string().min(1).max(255).regex(/^[^/\\\0]+$/, 'a plain file name');

export const SampleRunRequest = z.object({
  files: z
    .array(z.object({ name: SampleFileName, code: z.string().max(16 * 1024 * 1024) }))
    .min(1)
    .max(64)
    .meta({ description: "The program's files (name and text); at most the assignment's maxAttachments, each at most its maxUploadBytes" }),
  language: z.string().min(1).max(64).optional().meta({ description: 'A language id of the table; else the file names say' }),
});
export type SampleRunRequest = z.infer<typeof SampleRunRequest>;

const Text = z.string().max(SAMPLE_TEXT_CHARS + 64);

export const SampleResult = z.object({
  name: z.string().max(255).meta({ description: 'The sample test case, relative to data/: sample/1' }),
  verdict: z.string().max(8),
  cpuMs: z.number().int().min(0).optional(),
  wallMs: z.number().int().min(0).optional(),
  input: Text.optional(),
  expected: Text.optional(),
  output: Text.optional(),
  feedback: Text.optional(),
  truncated: z.boolean().optional().meta({ description: `Some text was cut to ${SAMPLE_TEXT_CHARS} characters` }),
});
export type SampleResult = z.infer<typeof SampleResult>;

export const SampleRunState = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']);

export const SampleRun = z.object({
  id: z.string(),
  activityId: z.string(),
  problemSlug: z.string(),
  state: SampleRunState,
  language: z.string().optional(),
  createdAt: Timestamp,
  startedAt: Timestamp.optional(),
  finishedAt: Timestamp.optional(),
  verdict: z.string().optional().meta({ description: 'Over the samples only: AC when every sample passed, CE when it did not compile' }),
  compileOutput: z.string().optional(),
  samples: z.array(SampleResult),
  failureReason: z.string().optional(),
  expiresAt: Timestamp.meta({ description: 'When the run is removed' }),
});
export type SampleRun = z.infer<typeof SampleRun>;

// ---- the runner's side ----

export const ClaimedSampleRun = z.object({
  sampleRunId: z.string(),
  leaseToken: z.string(),
  leaseExpiresAt: Timestamp,
  problemType: z.string(),
  problemVersionId: z.string(),
  packageFileId: z.string(),
  packageSha256: z.string(),
  files: z.array(z.object({ name: z.string(), code: z.string() })),
  props: z.record(z.string(), z.unknown()).nullable().optional(),
  config: z.record(z.string(), z.unknown()).nullable().optional(),
  maxima: JudgingMaxima.optional(),
  timeLimitSeconds: z.number().positive().optional(),
});
export type ClaimedSampleRun = z.infer<typeof ClaimedSampleRun>;

export const SampleRunLease = z.object({ sampleRunId: z.string(), leaseToken: z.string(), leaseExpiresAt: Timestamp });

export const SampleRunReportRequest = z.object({
  leaseToken: z.string().min(1).max(256),
  verdict: z.string().max(8).optional(),
  compileOutput: z.string().max(SAMPLE_COMPILE_CHARS + 64).optional(),
  samples: z.array(SampleResult).max(SAMPLES_MAX).optional(),
  failureReason: z.string().max(2000).optional(),
});
export const SampleRunReportResult = z.object({ sampleRunId: z.string(), state: z.enum(['completed', 'failed']), duplicate: z.boolean() });
