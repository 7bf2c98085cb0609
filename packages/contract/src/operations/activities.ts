import { z } from 'zod';
import { defineOperation } from '../operation.js';
import {
  Activity,
  ActivitiesQuery,
  ActivityDocumentsRequest,
  ActivitySummary,
  ArchivedRequest,
  CreateActivityRequest,
  DocumentKind,
  DuplicateActivityRequest,
  EnrolmentRequest,
  ManagerActivitiesQuery,
  ParticipantActivity,
  ParticipantProblem,
  ParticipantSeries,
  PublishedRequest,
  Series,
  UpdateActivityRequest,
} from '../schemas/content.js';
import { ActivityDashboard } from '../schemas/dashboard.js';
import { Uuid, paged } from '../wire.js';

const IdParam = z.object({ id: Uuid });
const IdOrSlug = z.object({ idOrSlug: z.string().min(1).max(64) });
const TAG = 'Activities';
const P = 'Participant';

export const createActivity = defineOperation({
  id: 'createActivity',
  method: 'POST',
  path: '/activities',
  tag: TAG,
  summary: 'Create an activity (published at once); the creator becomes its manager',
  auth: 'user',
  body: CreateActivityRequest,
  response: Activity,
  status: 201,
  errors: ['forbidden', 'activity.slug.taken', 'validation_failed'],
  permission: 'activity:create',
});

export const updateActivity = defineOperation({
  id: 'updateActivity',
  method: 'PUT',
  path: '/activities/{idOrSlug}',
  tag: TAG,
  summary:
    "Change an activity: absent members keep their value, null clears; the slug must equal the stored one. A series start or end equal to the activity's old one moves with it; a series left outside the new range refuses the change (activity.seriesOutside)",
  auth: 'user',
  params: IdOrSlug,
  body: UpdateActivityRequest,
  response: Activity,
  status: 200,
  errors: ['forbidden', 'not_found', 'activity.slug.immutable', 'activity.archived', 'activity.seriesOutside', 'validation_failed'],
  permission: 'activity:update',
  extension: true,
});

export const deleteActivity = defineOperation({
  id: 'deleteActivity',
  method: 'DELETE',
  path: '/activities/{idOrSlug}',
  tag: TAG,
  summary: 'Delete an activity that holds no submissions, with its series and grants',
  auth: 'user',
  params: IdOrSlug,
  status: 204,
  errors: ['forbidden', 'not_found', 'activity.hasSubmissions'],
  permission: 'activity:delete',
  extension: true,
});

export const setActivityPublished = defineOperation({
  id: 'setActivityPublished',
  method: 'POST',
  path: '/activities/{id}/published',
  tag: TAG,
  summary: 'Publish or unpublish: unpublished activities are invisible to participants and their series never open',
  auth: 'user',
  params: IdParam,
  body: PublishedRequest,
  response: Activity,
  status: 200,
  errors: ['forbidden', 'not_found', 'validation_failed'],
  permission: 'activity:update',
});

export const setActivityArchived = defineOperation({
  id: 'setActivityArchived',
  method: 'POST',
  path: '/activities/{idOrSlug}/archived',
  tag: TAG,
  summary: 'Archive (read-only, hidden from lists) or restore an activity',
  auth: 'user',
  params: IdOrSlug,
  body: ArchivedRequest,
  response: Activity,
  status: 200,
  errors: ['forbidden', 'not_found', 'validation_failed'],
  permission: 'activity:archive',
  extension: true,
});

export const duplicateActivity = defineOperation({
  id: 'duplicateActivity',
  method: 'POST',
  path: '/activities/{id}/duplicate',
  tag: TAG,
  summary: 'Copy an activity with its series and assignments, unpublished, every date shifted so the earliest series start lands on startsAt',
  auth: 'user',
  params: IdParam,
  body: DuplicateActivityRequest,
  response: Activity,
  status: 201,
  errors: ['forbidden', 'not_found', 'activity.slug.taken', 'validation_failed'],
  permission: 'activity:create',
});

export const setActivityDocuments = defineOperation({
  id: 'setActivityDocuments',
  method: 'PUT',
  path: '/activities/{idOrSlug}/documents/{kind}',
  tag: TAG,
  summary: 'Set the documents of one kind (rules, welcome, ...), one per language',
  auth: 'user',
  params: z.object({ idOrSlug: z.string().min(1).max(64), kind: DocumentKind }),
  body: ActivityDocumentsRequest,
  response: Activity,
  status: 200,
  errors: ['forbidden', 'not_found', 'activity.archived', 'file.missing', 'validation_failed'],
  permission: 'activity:update',
  extension: true,
});

export const deleteActivityDocuments = defineOperation({
  id: 'deleteActivityDocuments',
  method: 'DELETE',
  path: '/activities/{idOrSlug}/documents/{kind}',
  tag: TAG,
  summary: 'Remove the documents of one kind',
  auth: 'user',
  params: z.object({ idOrSlug: z.string().min(1).max(64), kind: DocumentKind }),
  response: Activity,
  status: 200,
  errors: ['forbidden', 'not_found', 'activity.archived'],
  permission: 'activity:update',
  extension: true,
});

export const listManagedActivities = defineOperation({
  id: 'listManagedActivities',
  method: 'GET',
  path: '/manager/activities',
  tag: TAG,
  summary: 'Activities the caller manages (activity:update there), newest first',
  auth: 'user',
  query: ManagerActivitiesQuery,
  response: paged(Activity),
  status: 200,
  errors: [],
  permission: 'activity:update',
});

export const managedActivitiesSummary = defineOperation({
  id: 'managedActivitiesSummary',
  method: 'GET',
  path: '/manager/activities/summary',
  tag: TAG,
  summary: 'Id, slug and name of every activity the caller manages (at most 200, archived left out)',
  auth: 'user',
  response: z.array(ActivitySummary),
  status: 200,
  errors: [],
  permission: 'activity:update',
});

export const getManagedActivity = defineOperation({
  id: 'getManagedActivity',
  method: 'GET',
  path: '/manager/activities/{idOrSlug}',
  tag: TAG,
  summary: 'One activity with every setting',
  auth: 'user',
  params: IdOrSlug,
  response: Activity,
  status: 200,
  errors: ['not_found'],
  permission: 'activity:update',
});

export const listManagedSeries = defineOperation({
  id: 'listManagedSeries',
  method: 'GET',
  path: '/manager/activities/{idOrSlug}/series',
  tag: TAG,
  summary: 'Every series of an activity with its assignments, in order',
  auth: 'user',
  params: IdOrSlug,
  response: z.array(Series),
  status: 200,
  errors: ['not_found'],
  permission: 'activity:update',
});

export const getActivityDashboard = defineOperation({
  id: 'getActivityDashboard',
  method: 'GET',
  path: '/manager/activities/{idOrSlug}/dashboard',
  tag: TAG,
  summary: "An activity's figures for its staff, read now: queue and oldest waiting submission, runners (the instance's), submissions per minute over the last ten, states and verdicts, judging errors, unanswered questions, printouts waiting",
  auth: 'user',
  params: IdOrSlug,
  response: ActivityDashboard,
  status: 200,
  errors: ['not_found', 'forbidden'],
  permission: 'activity:update',
  extension: true,
});

// ---- the participant's side (decisions §9) ----

export const listActivities = defineOperation({
  id: 'listActivities',
  method: 'GET',
  path: '/activities',
  tag: P,
  summary: 'Published activities the caller is enrolled in or may join, by state',
  auth: 'user',
  query: ActivitiesQuery,
  response: paged(ParticipantActivity),
  status: 200,
  errors: ['validation_failed'],
  extension: true,
});

export const getActivity = defineOperation({
  id: 'getActivity',
  method: 'GET',
  path: '/activities/{idOrSlug}',
  tag: P,
  summary: 'One activity as a participant sees it',
  auth: 'user',
  params: IdOrSlug,
  response: ParticipantActivity,
  status: 200,
  errors: ['not_found'],
  extension: true,
});

export const enrol = defineOperation({
  id: 'enrol',
  method: 'POST',
  path: '/activities/{idOrSlug}/enrolment',
  tag: P,
  summary: 'Join an activity as a participant, as its join policy allows (enrolling again changes nothing)',
  auth: 'user',
  params: IdOrSlug,
  body: EnrolmentRequest,
  response: ParticipantActivity,
  status: 200,
  errors: ['not_found', 'activity.archived', 'enrolment.closed', 'enrolment.password', 'account.notApproved', 'validation_failed'],
  extension: true,
});

export const listActivitySeries = defineOperation({
  id: 'listActivitySeries',
  method: 'GET',
  path: '/activities/{idOrSlug}/series',
  tag: P,
  summary: "The series with their problems (once opened) and the caller's status per problem",
  auth: 'user',
  params: IdOrSlug,
  response: z.array(ParticipantSeries),
  status: 200,
  errors: ['not_found'],
  permission: 'activity:read',
  extension: true,
});

export const getActivityProblem = defineOperation({
  id: 'getActivityProblem',
  method: 'GET',
  path: '/activities/{idOrSlug}/problems/{problemSlug}',
  tag: P,
  summary: 'A problem as a participant sees it: statements, attachments, effective limits, submissions left',
  auth: 'user',
  params: z.object({ idOrSlug: z.string().min(1).max(64), problemSlug: z.string().min(1).max(64) }),
  response: ParticipantProblem,
  status: 200,
  errors: ['not_found'],
  permission: 'activity:read',
  extension: true,
});
