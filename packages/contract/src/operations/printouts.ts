import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { OwnPrintoutsQuery, Printout, PrintoutActivity, PrintoutDetail, PrintoutRequest, PrintoutsQuery, ResolvePrintoutRequest } from '../schemas/printouts.js';
import { Uuid, paged } from '../wire.js';

const TAG = 'Printouts';
const IdParam = z.object({ id: Uuid });
const ActivityParam = z.object({ idOrSlug: z.string() });

export const listPrintouts = defineOperation({
  id: 'listPrintouts',
  method: 'GET',
  path: '/printouts',
  tag: TAG,
  summary: 'The printout queue of the activities where the caller holds printout:manage, oldest first',
  auth: 'user',
  query: PrintoutsQuery,
  response: paged(Printout),
  status: 200,
  errors: ['forbidden', 'validation_failed'],
  permission: 'printout:manage',
});

export const listPrintoutActivities = defineOperation({
  id: 'listPrintoutActivities',
  method: 'GET',
  path: '/printouts/activities',
  tag: TAG,
  summary: 'The activities whose printouts the caller may handle (printout:manage, module on)',
  auth: 'user',
  response: z.array(PrintoutActivity),
  status: 200,
  errors: [],
  permission: 'printout:manage',
});

export const getPrintout = defineOperation({
  id: 'getPrintout',
  method: 'GET',
  path: '/printouts/{id}',
  tag: TAG,
  summary: 'A printout with its source (to holders of printout:manage and to its requester)',
  auth: 'user',
  params: IdParam,
  response: PrintoutDetail,
  status: 200,
  errors: ['not_found'],
  permission: 'printout:manage',
});

export const getPrintoutPdf = defineOperation({
  id: 'getPrintoutPdf',
  method: 'GET',
  path: '/printouts/{id}/pdf',
  tag: TAG,
  summary:
    "The printout as the PDF that is printed: header (participant, problem, time in the activity's zone, pages), line numbers, highlighting. Made once, off the request's thread, and kept; 422 printout.tooLong past the line or page limit, 422 printout.render when making it ran out of its time or memory",
  auth: 'user',
  params: IdParam,
  response: 'binary',
  status: 200,
  errors: ['not_found', 'printout.state', 'printout.tooLong', 'printout.render'],
  permission: 'printout:manage',
  extension: true,
});

const transition = (id: string, path: string, summary: string, errors: ('printout.state' | 'printout.claimed')[]) =>
  ({
    id,
    method: 'POST',
    path,
    tag: TAG,
    summary,
    auth: 'user',
    params: IdParam,
    response: Printout,
    status: 200,
    errors: ['forbidden', 'not_found', ...errors],
    permission: 'printout:manage',
  }) as const;

export const claimPrintout = defineOperation(
  transition('claimPrintout', '/printouts/{id}/claim', 'Take a queued printout (again by its claimer: no change); 409 printout.claimed when another has it', ['printout.state', 'printout.claimed']),
);

export const releasePrintout = defineOperation(
  transition('releasePrintout', '/printouts/{id}/release', 'Hand a claimed printout back to the queue', ['printout.state']),
);

export const resolvePrintout = defineOperation({
  ...transition('resolvePrintout', '/printouts/{id}/resolve', 'Mark a queued or claimed printout done; its source is disposed 7 days later', ['printout.state']),
  body: ResolvePrintoutRequest,
  errors: ['forbidden', 'not_found', 'printout.state', 'validation_failed'],
});

export const listOwnPrintouts = defineOperation({
  id: 'listOwnPrintouts',
  method: 'GET',
  path: '/activities/{idOrSlug}/printouts',
  tag: 'Participant printouts',
  summary: "The caller's own printout requests in the activity, newest first",
  auth: 'user',
  params: ActivityParam,
  query: OwnPrintoutsQuery,
  response: paged(Printout),
  status: 200,
  errors: ['not_found', 'printouts.disabled', 'validation_failed'],
  permission: 'printout:create',
  extension: true,
});

export const requestPrintout = defineOperation({
  id: 'requestPrintout',
  method: 'POST',
  path: '/activities/{idOrSlug}/printouts',
  tag: 'Participant printouts',
  summary:
    "Ask to print a file ({fileName, source}) or one of the caller's submissions ({submissionId}); printoutChanged tells the printout staff. 422 printout.tooLong when it has more than PRINTOUT_LINES_MAX (5000) lines or would take more than PRINTOUT_PAGES_MAX (100) pages",
  auth: 'user',
  params: ActivityParam,
  body: PrintoutRequest,
  response: Printout,
  status: 201,
  errors: ['forbidden', 'not_found', 'printouts.disabled', 'validation_failed', 'activity.archived', 'printout.tooLong'],
  permission: 'printout:create',
  extension: true,
});
