/** Submitting, the author's own views and the managers' views of submissions. */
export { SubmissionsService, type SubmissionJudging } from './service.js';
export { submissionsRoutes } from './routes.js';
export { DetailReader, SUBMISSION_SELECT, rescaled, toSummary, type SubmissionRow } from './views.js';
export { containsFolded } from './queries.js';
