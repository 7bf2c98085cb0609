import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { ClaimRequest, LeaseRequest } from '../schemas/judging.js';
import {
  ClaimedSampleRun,
  SAMPLE_RUN_KEEP_SECONDS,
  SampleRun,
  SampleRunLease,
  SampleRunReportRequest,
  SampleRunReportResult,
  SampleRunRequest,
} from '../schemas/sample-runs.js';
import { Uuid } from '../wire.js';

const IdOrSlug = z.string().min(1).max(64);

export const runSamples = defineOperation({
  id: 'runSamples',
  method: 'POST',
  path: '/activities/{idOrSlug}/problems/{problemSlug}/sample-runs',
  tag: 'Participant',
  summary: "Run code on the problem's sample tests only; never a submission",
  description:
    'Judged by the same runners in the same sandbox under the same limits as a submission, after every waiting submission; only the sample tests of the package run. ' +
    'It is never a submission: no penalty, not in the standings or submission lists, not counted against submission limits. ' +
    "Starting a run cancels the caller's unfinished one. The result is polled with getSampleRun; " +
    `it is kept ${SAMPLE_RUN_KEEP_SECONDS / 60} minutes and only its author reads it (staff see sample runs in the server's and the runner's log). ` +
    'Refusals: the activity is archived (409); the problem is not visible (404); the caller may not submit there (403 forbidden); ' +
    "the activity's sampleRuns module is off (403 sampleRuns.disabled); its series does not take submissions (403 series.closed); the address rules (403 series.address); " +
    'the problem has no version (409 problem.noVersion) or its version no sample tests (409 sampleRun.noSamples); ' +
    "more files than maxAttachments (422 file.tooMany), a file over maxUploadBytes (413); the language cannot be judged (422 submission.language); " +
    'more runs than the per-participant rate allows (429 rate_limited, with Retry-After; the server setting sampleRuns.perWindow runs per sampleRuns.windowSeconds).',
  auth: 'user',
  params: z.object({ idOrSlug: IdOrSlug, problemSlug: IdOrSlug }),
  body: SampleRunRequest,
  response: SampleRun,
  status: 201,
  errors: [
    'activity.archived',
    'not_found',
    'forbidden',
    'sampleRuns.disabled',
    'series.closed',
    'series.address',
    'problem.noVersion',
    'sampleRun.noSamples',
    'file.tooMany',
    'payload_too_large',
    'submission.language',
    'rate_limited',
    'validation_failed',
  ],
  permission: 'submission:create',
  extension: true,
});

export const getSampleRun = defineOperation({
  id: 'getSampleRun',
  method: 'GET',
  path: '/sample-runs/{sampleRunId}',
  tag: 'Participant',
  summary: 'A sample run of the caller: its state and, once finished, each sample’s verdict, time, input, expected and actual output',
  description: 'Only the author reads a sample run; any other caller, and a run past its expiry, is 404.',
  auth: 'user',
  params: z.object({ sampleRunId: Uuid }),
  response: SampleRun,
  status: 200,
  errors: ['not_found', 'validation_failed'],
  extension: true,
});

const TAG = 'Runner protocol';
const RunParam = z.object({ sampleRunId: Uuid });
const HELD = ['not_found', 'runner.lease.stale', 'runner.lease.foreign', 'sampleRun.state', 'runner.notApproved', 'validation_failed'] as const;

export const claimSampleRun = defineOperation({
  id: 'claimSampleRun',
  method: 'POST',
  path: '/runner/sample-runs/claim',
  tag: TAG,
  summary: 'Take the next sample run this runner can judge (problem type and tags as for jobs); 204 when there is none or a job is waiting',
  description: 'Sample runs go after every job the runner could take: while one waits, this answers 204 and the runner claims the job.',
  auth: 'runner',
  body: ClaimRequest,
  response: ClaimedSampleRun,
  status: 200,
  errors: ['runner.notApproved', 'validation_failed'],
  extension: true,
});

export const renewSampleRunLease = defineOperation({
  id: 'renewSampleRunLease',
  method: 'POST',
  path: '/runner/sample-runs/{sampleRunId}/lease',
  tag: TAG,
  summary: 'Extend the lease of a held sample run; a run its author replaced answers runner.lease.stale',
  auth: 'runner',
  params: RunParam,
  body: LeaseRequest,
  response: SampleRunLease,
  status: 200,
  errors: [...HELD],
  extension: true,
});

export const reportSampleRun = defineOperation({
  id: 'reportSampleRun',
  method: 'POST',
  path: '/runner/sample-runs/{sampleRunId}/report',
  tag: TAG,
  summary: 'Report a held sample run: the verdict and each sample, or failureReason; a repeat answers duplicate: true',
  auth: 'runner',
  params: RunParam,
  body: SampleRunReportRequest,
  response: SampleRunReportResult,
  status: 200,
  errors: [...HELD],
  extension: true,
});
