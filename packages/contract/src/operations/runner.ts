import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { FileMeta, FileUpload } from '../schemas/files.js';
import { FileUploadForm } from '../schemas/forms.js';
import {
  AttachJobFileRequest,
  AttachRunnerFileRequest,
  Challenge,
  ChallengeRequest,
  ClaimRequest,
  ClaimedJob,
  ClaimedTrial,
  JobLease,
  LeaseRequest,
  LeaseTokenRequest,
  ProgressRequest,
  RegisterRunnerRequest,
  ReportRequest,
  ReportResult,
  RunnerRegistration,
  RunnerToken,
  TokenRequest,
  TrialLease,
  TrialReportRequest,
  TrialReportResult,
} from '../schemas/judging.js';
import { Uuid } from '../wire.js';

const TAG = 'Runner protocol';
const JobParam = z.object({ jobId: Uuid });
const TrialParam = z.object({ trialId: Uuid });
/** What every call about a held job may answer besides its own refusals. */
const HELD = ['not_found', 'runner.lease.stale', 'runner.lease.foreign', 'job.state', 'runner.notApproved', 'validation_failed'] as const;

export const registerRunner = defineOperation({
  id: 'registerRunner',
  method: 'POST',
  path: '/runner/register',
  tag: TAG,
  summary: 'Register an Ed25519 public key; idempotent per key, a new key waits for approval',
  description:
    'A known key refreshes the name, version and problem types and keeps its identity, state and tags. ' +
    'With an enrolmentCode (extension) a new or waiting key is approved at once and takes the name and tags the code carries; ' +
    'an unknown, withdrawn, expired or used-up code is 403 runner.enrolmentCode and registers nothing. An approved key needs no code: one sent is ignored.',
  auth: 'anonymous',
  body: RegisterRunnerRequest,
  response: RunnerRegistration,
  status: 200,
  errors: ['runner.key.malformed', 'runner.key.length', 'runner.revoked', 'runner.enrolmentCode', 'validation_failed'],
});

export const runnerChallenge = defineOperation({
  id: 'runnerChallenge',
  method: 'POST',
  path: '/runner/auth/challenge',
  tag: TAG,
  summary: 'A single-use nonce for a registered key, valid 2 minutes',
  auth: 'anonymous',
  body: ChallengeRequest,
  response: Challenge,
  status: 200,
  errors: ['not_found', 'validation_failed'],
});

export const runnerToken = defineOperation({
  id: 'runnerToken',
  method: 'POST',
  path: '/runner/auth/token',
  tag: TAG,
  summary: 'Exchange a signed nonce for a runner token (12 hours); the runner must be approved',
  description:
    'The signature is Ed25519 over the UTF-8 bytes of the nonce string as received, sent as base64. The nonce is spent by any attempt. ' +
    'The runner may list the languages it has installed (extension): the server refuses at submit what no approved runner matching the assignment can judge.',
  auth: 'anonymous',
  body: TokenRequest,
  response: RunnerToken,
  status: 200,
  errors: ['runner.nonce.unknown', 'runner.nonce.expired', 'runner.nonce.mismatch', 'not_found', 'runner.notApproved', 'runner.signature', 'validation_failed'],
});

export const claimJob = defineOperation({
  id: 'claimJob',
  method: 'POST',
  path: '/runner/jobs/claim',
  tag: TAG,
  summary: 'Take the next job this runner can judge, under a lease; 204 when there is none (after waiting up to waitSeconds)',
  description:
    "A job matches when its problem type is one the runner registered and the runner's tags include every tag the job's series requires " +
    "(the series' runnerTags, else the activity's). First attempts go before rejudges, otherwise oldest first.",
  auth: 'runner',
  body: ClaimRequest,
  response: ClaimedJob,
  status: 200,
  errors: ['runner.notApproved', 'validation_failed'],
});

export const renewJobLease = defineOperation({
  id: 'renewJobLease',
  method: 'POST',
  path: '/runner/jobs/{jobId}/lease',
  tag: TAG,
  summary: 'Extend the lease of a held job (never shortens it)',
  auth: 'runner',
  params: JobParam,
  body: LeaseRequest,
  response: JobLease,
  status: 200,
  errors: [...HELD],
});

export const releaseJob = defineOperation({
  id: 'releaseJob',
  method: 'POST',
  path: '/runner/jobs/{jobId}/release',
  tag: TAG,
  summary: 'Give a held job back: it is queued again at once',
  auth: 'runner',
  params: JobParam,
  body: LeaseTokenRequest,
  status: 204,
  errors: [...HELD],
});

export const jobProgress = defineOperation({
  id: 'jobProgress',
  method: 'POST',
  path: '/runner/jobs/{jobId}/progress',
  tag: TAG,
  summary: 'Tell how far judging got (done of total tests); extends the lease by its default',
  auth: 'runner',
  params: JobParam,
  body: ProgressRequest,
  status: 204,
  errors: [...HELD],
});

export const reportJob = defineOperation({
  id: 'reportJob',
  method: 'POST',
  path: '/runner/jobs/{jobId}/report',
  tag: TAG,
  summary: 'Report the result of a held job; a repeat answers duplicate: true and changes nothing',
  description:
    'infrastructureFailure puts the job back in the queue (it counts as a delivery; after 5 the attempt fails). ' +
    'Files named details (per-test table, JSON) and log (compiler and judge output) are attached to the attempt.',
  auth: 'runner',
  params: JobParam,
  body: ReportRequest,
  response: ReportResult,
  status: 200,
  errors: [...HELD, 'result.verdict.missing', 'file.missing', 'attempt.file.duplicate'],
});

export const attachJobFile = defineOperation({
  id: 'attachJobFile',
  method: 'POST',
  path: '/runner/jobs/{jobId}/files',
  tag: TAG,
  summary: 'Attach an uploaded file to the attempt of a held job under a name',
  auth: 'runner',
  params: JobParam,
  body: AttachJobFileRequest,
  status: 204,
  errors: [...HELD, 'file.missing', 'attempt.file.duplicate'],
});

export const downloadRunnerFile = defineOperation({
  id: 'downloadRunnerFile',
  method: 'GET',
  path: '/runner/files/{id}',
  tag: TAG,
  summary: "A file of a job or trial this runner holds (package, submission files); any other is 404",
  auth: 'runner',
  params: z.object({ id: Uuid }),
  response: 'binary',
  status: 200,
  errors: ['not_found', 'runner.notApproved'],
});

export const uploadRunnerFile = defineOperation({
  id: 'uploadRunnerFile',
  method: 'POST',
  path: '/runner/files',
  tag: TAG,
  summary: 'Upload a file (checked against its SHA-256) to attach to a job or to the runner',
  auth: 'runner',
  body: FileUpload,
  multipart: true,
  form: FileUploadForm,
  response: FileMeta,
  status: 201,
  errors: ['file.required', 'checksum_mismatch', 'payload_too_large', 'unsupported_media_type', 'validation_failed', 'runner.notApproved'],
});

export const attachRunnerFile = defineOperation({
  id: 'attachRunnerFile',
  method: 'POST',
  path: '/runner/files/attach',
  tag: TAG,
  summary: 'Attach an uploaded file to the runner itself (a newer file under the same name replaces it)',
  auth: 'runner',
  body: AttachRunnerFileRequest,
  status: 204,
  errors: ['file.missing', 'runner.notApproved', 'validation_failed'],
});

export const runnerHeartbeat = defineOperation({
  id: 'runnerHeartbeat',
  method: 'POST',
  path: '/runner/heartbeat',
  tag: TAG,
  summary: 'I am alive (does not extend leases)',
  auth: 'runner',
  status: 204,
  errors: ['runner.notApproved'],
});

export const claimTrial = defineOperation({
  id: 'claimTrial',
  method: 'POST',
  path: '/runner/trials/claim',
  tag: TAG,
  summary: 'Take the next trial of a problem type this runner registered; 204 when there is none',
  auth: 'runner',
  body: ClaimRequest,
  response: ClaimedTrial,
  status: 200,
  errors: ['runner.notApproved', 'validation_failed'],
});

export const renewTrialLease = defineOperation({
  id: 'renewTrialLease',
  method: 'POST',
  path: '/runner/trials/{trialId}/lease',
  tag: TAG,
  summary: 'Extend the lease of a held trial (never shortens it)',
  auth: 'runner',
  params: TrialParam,
  body: LeaseRequest,
  response: TrialLease,
  status: 200,
  errors: ['not_found', 'runner.lease.stale', 'runner.lease.foreign', 'trial.state', 'runner.notApproved', 'validation_failed'],
});

export const reportTrial = defineOperation({
  id: 'reportTrial',
  method: 'POST',
  path: '/runner/trials/{trialId}/report',
  tag: TAG,
  summary: 'Report a held trial: measurement, or failureReason; a repeat answers duplicate: true',
  auth: 'runner',
  params: TrialParam,
  body: TrialReportRequest,
  response: TrialReportResult,
  status: 200,
  errors: ['not_found', 'runner.lease.stale', 'runner.lease.foreign', 'trial.state', 'runner.notApproved', 'validation_failed'],
});
