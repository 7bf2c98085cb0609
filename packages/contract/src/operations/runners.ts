import { z } from 'zod';
import { defineOperation } from '../operation.js';
import {
  CreateEnrolmentCodeRequest,
  CreateTrialRequest,
  CreatedEnrolmentCode,
  EnrolmentCode,
  RevokeRunnerRequest,
  Runner,
  RunnerTagsRequest,
  RunnersQuery,
  Trial,
} from '../schemas/judging.js';
import { Uuid, paged } from '../wire.js';

const TAG = 'Runners';
const IdParam = z.object({ id: Uuid });

export const listRunners = defineOperation({
  id: 'listRunners',
  method: 'GET',
  path: '/runners',
  tag: TAG,
  summary: 'The registered runners, newest first',
  auth: 'user',
  query: RunnersQuery,
  response: paged(Runner),
  status: 200,
  errors: ['forbidden', 'validation_failed'],
  permission: 'runner:read',
  extension: true,
});

export const getRunner = defineOperation({
  id: 'getRunner',
  method: 'GET',
  path: '/runners/{id}',
  tag: TAG,
  summary: 'One runner',
  auth: 'user',
  params: IdParam,
  response: Runner,
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'runner:read',
  extension: true,
});

export const approveRunner = defineOperation({
  id: 'approveRunner',
  method: 'POST',
  path: '/runners/{id}/approve',
  tag: TAG,
  summary: 'Let a runner take work (idempotent)',
  auth: 'user',
  params: IdParam,
  response: Runner,
  status: 200,
  errors: ['forbidden', 'not_found', 'runner.revoked'],
  permission: 'runner:approve',
  extension: true,
});

export const revokeRunner = defineOperation({
  id: 'revokeRunner',
  method: 'POST',
  path: '/runners/{id}/revoke',
  tag: TAG,
  summary: 'Stop a runner for good: its tokens die and its jobs go back to the queue',
  auth: 'user',
  params: IdParam,
  body: RevokeRunnerRequest,
  response: Runner,
  status: 200,
  errors: ['forbidden', 'not_found', 'validation_failed'],
  permission: 'runner:revoke',
  extension: true,
});

export const setRunnerTags = defineOperation({
  id: 'setRunnerTags',
  method: 'POST',
  path: '/runners/{id}/tags',
  tag: TAG,
  summary: "Set a runner's tags (which series' jobs it may take)",
  auth: 'user',
  params: IdParam,
  body: RunnerTagsRequest,
  response: Runner,
  status: 200,
  errors: ['forbidden', 'not_found', 'validation_failed'],
  permission: 'runner:update',
  extension: true,
});

export const deleteRunner = defineOperation({
  id: 'deleteRunner',
  method: 'DELETE',
  path: '/runners/{id}',
  tag: TAG,
  summary: 'Forget a revoked runner',
  auth: 'user',
  params: IdParam,
  status: 204,
  errors: ['forbidden', 'not_found', 'runner.notRevoked'],
  permission: 'runner:revoke',
  extension: true,
});

export const createRunnerEnrolmentCode = defineOperation({
  id: 'createRunnerEnrolmentCode',
  method: 'POST',
  path: '/runner-enrolment-codes',
  tag: TAG,
  summary: 'A one-time enrolment code: a runner registering with it is approved at once',
  description:
    'The code is in this answer only; the server keeps its SHA-256. It expires after expiresInSeconds (default 1 hour, at most 7 days) ' +
    'and enrols at most `uses` runners (default 1), giving each the name and tags it carries.',
  auth: 'user',
  body: CreateEnrolmentCodeRequest,
  response: CreatedEnrolmentCode,
  status: 201,
  errors: ['forbidden', 'validation_failed'],
  permission: 'runner:approve',
  extension: true,
});

export const listRunnerEnrolmentCodes = defineOperation({
  id: 'listRunnerEnrolmentCodes',
  method: 'GET',
  path: '/runner-enrolment-codes',
  tag: TAG,
  summary: 'The enrolment codes that have not expired, newest first (never the codes themselves)',
  auth: 'user',
  response: z.object({ items: z.array(EnrolmentCode) }),
  status: 200,
  errors: ['forbidden'],
  permission: 'runner:approve',
  extension: true,
});

export const revokeRunnerEnrolmentCode = defineOperation({
  id: 'revokeRunnerEnrolmentCode',
  method: 'DELETE',
  path: '/runner-enrolment-codes/{id}',
  tag: TAG,
  summary: 'Withdraw an enrolment code: no runner can enrol with it any more (runners it enrolled stay)',
  auth: 'user',
  params: IdParam,
  status: 204,
  errors: ['forbidden', 'not_found'],
  permission: 'runner:approve',
  extension: true,
});

export const createTrial = defineOperation({
  id: 'createTrial',
  method: 'POST',
  path: '/trials',
  tag: 'Trials',
  summary: "Queue a trial of a problem package: a runner judges the package's own example submissions",
  description:
    'Needs trial:run in the named activity (or system-wide without one) and read access to the package file; at most 3 unfinished trials per user. ' +
    'The package is checked as a problem version\'s is: a package no runner could unpack is 422 package.invalid with the reason. No problem is created.',
  auth: 'user',
  body: CreateTrialRequest,
  response: Trial,
  status: 201,
  errors: ['forbidden', 'not_found', 'package.invalid', 'trial.tooMany', 'validation_failed'],
  permission: 'trial:run',
  extension: true,
});

export const getTrial = defineOperation({
  id: 'getTrial',
  method: 'GET',
  path: '/trials/{trialId}',
  tag: 'Trials',
  summary: 'A trial: its own author, or holders of trial:run where it ran',
  auth: 'user',
  params: z.object({ trialId: Uuid }),
  response: Trial,
  status: 200,
  errors: ['not_found'],
  extension: true,
});
