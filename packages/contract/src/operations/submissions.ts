import { z } from 'zod';
import { defineOperation } from '../operation.js';
import {
  ExcludedRequest,
  OwnSubmissionsQuery,
  Ranking,
  RankingQuery,
  SubmissionDetail,
  SubmissionSummary,
  SubmissionsQuery,
  SubmitForm,
} from '../schemas/judging.js';
import { SubmitFormParts } from '../schemas/forms.js';
import { Uuid, paged } from '../wire.js';

const IdOrSlug = z.string().min(1).max(64);
const P = 'Participant';
const M = 'Manager submissions';

export const submit = defineOperation({
  id: 'submit',
  method: 'POST',
  path: '/activities/{idOrSlug}/problems/{problemSlug}/submissions',
  tag: P,
  summary: 'Submit a solution: one or more file parts, or code with fileName; queued for judging at once',
  description:
    'Several files (C/C++ units with headers, Java classes of a package, Python modules): repeat the file part, up to the effective maxAttachments ' +
    "(the assignment's, else the activity's); each file keeps its plain file name (no directories: Java packages come from the package declarations) and " +
    'maxUploadBytes applies to each file; send sha256 as one digest per file part, in their order, comma-separated. ' +
    'More file parts than maxAttachments, or a file part not named file, is 422 file.tooMany; two parts with one file name is 422 validation_failed; ' +
    "every file must name the same language by its extension (headers such as .h and .hpp go with any), or props.language names it; props.entry may name the entry file. Nothing is stored on any refusal. " +
    'Refusals, in this order: the activity is archived (409); the problem is not visible (404); its series does not take submissions (403 series.closed); ' +
    "the caller's address is outside the series' address rules (403 series.address); the submission limit is reached (403 submission.limit); " +
    'the file is larger than the effective maxUploadBytes (413); ' +
    'the submission cannot be judged (422 submission.language): its file name gives no language and props.language names none, the language is not in the language table, ' +
    "the assignment's config.languages does not allow it, or no approved runner matching the assignment's runner tags reported it (checked only once some matching runner is approved: with none the submission waits in the queue; a runner that reported no languages counts as able to judge any); " +
    "its errors hold `language` (why) and `allowed` (the ids of the languages allowed there, as the problem's allowedLanguages lists them), and `allowed.<id>` the file extensions of each; " +
    'the sha256 does not match the stored bytes (422 checksum_mismatch). ' +
    'Managers of the activity may submit to closed series and past limits, to test their problems.',
  auth: 'user',
  params: z.object({ idOrSlug: IdOrSlug, problemSlug: IdOrSlug }),
  body: SubmitForm,
  multipart: true,
  form: SubmitFormParts,
  response: SubmissionSummary,
  status: 201,
  errors: [
    'activity.archived',
    'not_found',
    'forbidden',
    'series.closed',
    'series.address',
    'submission.limit',
    'payload_too_large',
    'submission.language',
    'checksum_mismatch',
    'submission.empty',
    'submission.fileName.missing',
    'file.tooMany',
    'problem.noVersion',
    'validation_failed',
    'unsupported_media_type',
  ],
  permission: 'submission:create',
  extension: true,
});

export const listOwnSubmissions = defineOperation({
  id: 'listOwnSubmissions',
  method: 'GET',
  path: '/activities/{idOrSlug}/submissions',
  tag: P,
  summary: "The caller's own submissions in an activity, newest first",
  auth: 'user',
  params: z.object({ idOrSlug: IdOrSlug }),
  query: OwnSubmissionsQuery,
  response: paged(SubmissionSummary),
  status: 200,
  errors: ['not_found', 'forbidden', 'validation_failed'],
  permission: 'submission:read:own',
  extension: true,
});

export const getOwnSubmission = defineOperation({
  id: 'getOwnSubmission',
  method: 'GET',
  path: '/activities/{idOrSlug}/submissions/{id}',
  tag: P,
  summary: 'One submission with its attempts; attempt files follow the activity attachmentVisibility',
  description: "Another participant's submission needs submission:read:all; without it, it is 404.",
  auth: 'user',
  params: z.object({ idOrSlug: IdOrSlug, id: Uuid }),
  response: SubmissionDetail,
  status: 200,
  errors: ['not_found'],
  permission: 'submission:read:own',
  extension: true,
});

export const getRanking = defineOperation({
  id: 'getRanking',
  method: 'GET',
  path: '/activities/{idOrSlug}/ranking',
  tag: P,
  summary: 'The standings, computed by the server (icpc or points), as the caller may see them',
  description:
    'scoreVisibility managersOnly shows rows only to holders of result:read:all; participantOnly shows a participant only their own row. ' +
    'A series counts only inside its ranking window (rankingVisibleFrom..rankingVisibleTo) unless the caller holds ranking:read:unfrozen. ' +
    'Results of submissions made at or after rankingFreezeAt are hidden until rankingRevealAt from anyone without ranking:read:unfrozen. ' +
    'Excluded submissions never count; series with importanceScope none are left out unless asked for with seriesId. ' +
    'view=public answers as a participant sees it whatever the caller holds (frozen cells carry no result), for a projector; rows name the username only to holders of result:read:all. ' +
    'Signed out: the public view of a published activity with publicScoreboard on, and 404 for any other (decisions §23).',
  auth: 'anonymous',
  params: z.object({ idOrSlug: IdOrSlug }),
  query: RankingQuery,
  response: Ranking,
  status: 200,
  errors: ['not_found', 'forbidden', 'validation_failed'],
  permission: 'ranking:read',
  extension: true,
});

export const listSubmissions = defineOperation({
  id: 'listSubmissions',
  method: 'GET',
  path: '/submissions',
  tag: M,
  summary: 'Submissions of the activities where the caller holds submission:read:all, newest first; filters apply before paging',
  auth: 'user',
  query: SubmissionsQuery,
  response: paged(SubmissionSummary),
  status: 200,
  errors: ['validation_failed'],
  permission: 'submission:read:all',
});

export const getSubmission = defineOperation({
  id: 'getSubmission',
  method: 'GET',
  path: '/submissions/{id}',
  tag: M,
  summary: 'One submission with every attempt and its files',
  auth: 'user',
  params: z.object({ id: Uuid }),
  response: SubmissionDetail,
  status: 200,
  errors: ['not_found'],
  permission: 'submission:read:all',
});

export const rejudgeSubmission = defineOperation({
  id: 'rejudgeSubmission',
  method: 'POST',
  path: '/submissions/{id}/rejudge',
  tag: M,
  summary: "Judge again: a new attempt against the assignment's pinned version, else the newest",
  auth: 'user',
  params: z.object({ id: Uuid }),
  response: SubmissionSummary,
  status: 200,
  errors: ['not_found', 'forbidden', 'problem.noVersion'],
  permission: 'submission:rejudge',
});

export const cancelAttempt = defineOperation({
  id: 'cancelAttempt',
  method: 'POST',
  path: '/submissions/{submissionId}/attempts/{attemptId}/cancel',
  tag: M,
  summary: 'Cancel a queued or running attempt; a runner holding it loses its lease',
  auth: 'user',
  params: z.object({ submissionId: Uuid, attemptId: Uuid }),
  response: SubmissionDetail,
  status: 200,
  errors: ['not_found', 'forbidden', 'attempt.finished'],
  permission: 'submission:cancel',
});

export const setSubmissionExcluded = defineOperation({
  id: 'setSubmissionExcluded',
  method: 'POST',
  path: '/submissions/{id}/excluded',
  tag: M,
  summary: 'Exclude a submission from the ranking and standings (with a reason), or count it again',
  auth: 'user',
  params: z.object({ id: Uuid }),
  body: ExcludedRequest,
  response: SubmissionDetail,
  status: 200,
  errors: ['not_found', 'forbidden', 'validation_failed'],
  permission: 'submission:exclude',
});

export const rejudgeAssignment = defineOperation({
  id: 'rejudgeAssignment',
  method: 'POST',
  path: '/series-problems/{assignmentId}/rejudge',
  tag: 'Series problems',
  summary: 'Judge every submission of an assignment again; answers the number of submissions queued',
  auth: 'user',
  params: z.object({ assignmentId: Uuid }),
  response: z.number().int(),
  status: 200,
  errors: ['not_found', 'forbidden', 'problem.noVersion'],
  permission: 'submission:rejudge',
});
