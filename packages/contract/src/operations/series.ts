import { z } from 'zod';
import { defineOperation } from '../operation.js';
import {
  CreateAssignmentRequest,
  CreateSeriesRequest,
  OrderRequest,
  PauseRequest,
  ResumeRequest,
  Series,
  ShiftRequest,
  UpdateAssignmentRequest,
  UpdateSeriesRequest,
} from '../schemas/content.js';
import { Uuid } from '../wire.js';

const SeriesParam = z.object({ seriesId: Uuid });
const AssignmentParam = z.object({ assignmentId: Uuid });
const TAG = 'Series';
const A = 'Series problems';

export const createSeries = defineOperation({
  id: 'createSeries',
  method: 'POST',
  path: '/activities/{idOrSlug}/series',
  tag: TAG,
  summary: 'Add a series to an activity (last in order)',
  auth: 'user',
  params: z.object({ idOrSlug: z.string().min(1).max(64) }),
  body: CreateSeriesRequest,
  response: Series,
  status: 201,
  errors: ['forbidden', 'not_found', 'activity.archived', 'series.slug.taken', 'validation_failed'],
  permission: 'activity:update',
});

export const reorderSeries = defineOperation({
  id: 'reorderSeries',
  method: 'POST',
  path: '/activities/{idOrSlug}/series/order',
  tag: TAG,
  summary: 'Put series in order: listed ones first, the rest after in their old order',
  auth: 'user',
  params: z.object({ idOrSlug: z.string().min(1).max(64) }),
  body: OrderRequest,
  response: z.array(Series),
  status: 200,
  errors: ['forbidden', 'not_found', 'activity.archived', 'order.foreign', 'validation_failed'],
  permission: 'activity:update',
  extension: true,
});

export const updateSeries = defineOperation({
  id: 'updateSeries',
  method: 'PUT',
  path: '/series/{seriesId}',
  tag: TAG,
  summary: 'Change a series: absent members keep their value, null clears; opening follows the new dates at once',
  auth: 'user',
  params: SeriesParam,
  body: UpdateSeriesRequest,
  response: Series,
  status: 200,
  errors: ['forbidden', 'not_found', 'activity.archived', 'series.slug.taken', 'validation_failed'],
  permission: 'activity:update',
  extension: true,
});

export const deleteSeries = defineOperation({
  id: 'deleteSeries',
  method: 'DELETE',
  path: '/series/{seriesId}',
  tag: TAG,
  summary: 'Delete a series that holds no submissions',
  auth: 'user',
  params: SeriesParam,
  status: 204,
  errors: ['forbidden', 'not_found', 'activity.archived', 'series.hasSubmissions'],
  permission: 'activity:update',
  extension: true,
});

export const shiftSeries = defineOperation({
  id: 'shiftSeries',
  method: 'POST',
  path: '/series/{seriesId}/shift',
  tag: TAG,
  summary: 'Move every date of a series by a number of minutes (negative: earlier)',
  auth: 'user',
  params: SeriesParam,
  body: ShiftRequest,
  response: Series,
  status: 200,
  errors: ['forbidden', 'not_found', 'activity.archived', 'validation_failed'],
  permission: 'activity:update',
  extension: true,
});

export const pauseSeries = defineOperation({
  id: 'pauseSeries',
  method: 'POST',
  path: '/series/{seriesId}/pause',
  tag: TAG,
  summary: 'Stop taking submissions now, optionally hiding the problems',
  auth: 'user',
  params: SeriesParam,
  body: PauseRequest,
  response: Series,
  status: 200,
  errors: ['forbidden', 'not_found', 'activity.archived', 'series.alreadyPaused', 'validation_failed'],
  permission: 'activity:update',
  extension: true,
});

export const resumeSeries = defineOperation({
  id: 'resumeSeries',
  method: 'POST',
  path: '/series/{seriesId}/resume',
  tag: TAG,
  summary: 'Resume a paused series, optionally extending its end (and ranking dates) by the time paused',
  auth: 'user',
  params: SeriesParam,
  body: ResumeRequest,
  response: Series,
  status: 200,
  errors: ['forbidden', 'not_found', 'activity.archived', 'series.notPaused', 'validation_failed'],
  permission: 'activity:update',
  extension: true,
});

export const attachProblem = defineOperation({
  id: 'attachProblem',
  method: 'POST',
  path: '/series/{seriesId}/problems',
  tag: A,
  summary: 'Attach a problem to a series, pinned to a version or following the newest',
  auth: 'user',
  params: SeriesParam,
  body: CreateAssignmentRequest,
  response: Series,
  status: 201,
  errors: ['forbidden', 'not_found', 'activity.archived', 'problem.archived', 'assignment.slug.taken', 'version.foreign', 'validation_failed'],
  permission: 'problem:attach',
  extension: true,
});

export const reorderSeriesProblems = defineOperation({
  id: 'reorderSeriesProblems',
  method: 'POST',
  path: '/series/{seriesId}/problems/order',
  tag: A,
  summary: 'Put the problems of a series in order: listed ones first, the rest after',
  auth: 'user',
  params: SeriesParam,
  body: OrderRequest,
  response: Series,
  status: 200,
  errors: ['forbidden', 'not_found', 'activity.archived', 'order.foreign', 'validation_failed'],
  permission: 'problem:attach',
  extension: true,
});

export const updateAssignment = defineOperation({
  id: 'updateAssignment',
  method: 'PUT',
  path: '/series-problems/{assignmentId}',
  tag: A,
  summary: 'Change an assignment: slug, name, pin, config, spec, props, points and limits (absent keeps, null clears)',
  auth: 'user',
  params: AssignmentParam,
  body: UpdateAssignmentRequest,
  response: Series,
  status: 200,
  errors: ['forbidden', 'not_found', 'activity.archived', 'assignment.slug.taken', 'version.foreign', 'validation_failed'],
  permission: 'problem:attach',
});

export const deleteAssignment = defineOperation({
  id: 'deleteAssignment',
  method: 'DELETE',
  path: '/series-problems/{assignmentId}',
  tag: A,
  summary: 'Detach a problem that nobody submitted to; answers the series as it is now',
  auth: 'user',
  params: AssignmentParam,
  response: Series,
  status: 200,
  errors: ['forbidden', 'not_found', 'activity.archived', 'assignment.hasSubmissions'],
  permission: 'problem:attach',
});
