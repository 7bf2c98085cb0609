import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { Activity } from '../schemas/content.js';
import { ActivityAward, ActivityAwards, AwardCitationRequest } from '../schemas/awards.js';

const TAG = 'Awards';
const IdOrSlug = z.object({ idOrSlug: z.string().min(1).max(64) });
const AwardParams = z.object({ idOrSlug: z.string().min(1).max(64), key: z.string().min(1).max(200) });

export const finalizeActivity = defineOperation({
  id: 'finalizeActivity',
  method: 'POST',
  path: '/activities/{idOrSlug}/finalize',
  tag: TAG,
  summary: 'Declare the standings final and compute the awards (decisions §24); activityFinalized tells those who may see the activity',
  description:
    'Refused (409 activity.finalize.blocked) while the activity has not ended, a counted submission is not judged yet or a question is unanswered; ' +
    'the problem\'s `errors` then hold one sentence under each of notEnded, unjudged and unanswered that applies. ' +
    'The awards are computed from the full standings (as through any freeze): computed awards are replaced, but a citation staff adjusted is kept while its award still exists. ' +
    'Once finalised, submissions, rejudging, exclusions, cancellations and changes of scoring in the activity are refused (409 activity.finalized) until it is reopened.',
  auth: 'user',
  params: IdOrSlug,
  response: Activity,
  status: 200,
  errors: ['forbidden', 'not_found', 'activity.finalized', 'activity.finalize.blocked', 'activity.archived'],
  permission: 'activity:update',
  extension: true,
});

export const reopenActivity = defineOperation({
  id: 'reopenActivity',
  method: 'DELETE',
  path: '/activities/{idOrSlug}/finalize',
  tag: TAG,
  summary: 'Reopen a finalised activity: its standings may change again; the awards stay (visible to staff only) until the next finalisation computes them again',
  auth: 'user',
  params: IdOrSlug,
  response: Activity,
  status: 200,
  errors: ['forbidden', 'not_found', 'activity.notFinalized'],
  permission: 'activity:update',
  extension: true,
});

export const listActivityAwards = defineOperation({
  id: 'listActivityAwards',
  method: 'GET',
  path: '/activities/{idOrSlug}/awards',
  tag: TAG,
  summary: 'The awards in order: winner, medals, first to solve each problem, group winners',
  description:
    'Staff (activity:update or ranking:read:unfrozen) see the awards once computed, finalised or not. Everyone else who may read the ranking sees them only once the ' +
    'activity is finalised and no freeze is in force for them (medals would reveal frozen results); until then the list is empty (never a 404, so a page can simply ask).',
  auth: 'user',
  params: IdOrSlug,
  response: ActivityAwards,
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'ranking:read',
  extension: true,
});

export const updateActivityAward = defineOperation({
  id: 'updateActivityAward',
  method: 'PUT',
  path: '/activities/{idOrSlug}/awards/{key}',
  tag: TAG,
  summary: "Change an award's citation before the ceremony; the award is marked adjusted and keeps the citation when the awards are computed again",
  auth: 'user',
  params: AwardParams,
  body: AwardCitationRequest,
  response: ActivityAward,
  status: 200,
  errors: ['forbidden', 'not_found', 'validation_failed'],
  permission: 'activity:update',
  extension: true,
});
