/** Submitting, the author's own views and the managers' views of submissions. */
export { SubmissionsService, type SubmissionJudging } from './service.js';
export { submissionsRoutes } from './routes.js';
export { detailOf, rescaled, selectSubmissions, submissionFilesOf, submissionRow, toSummary, type SubmissionRow } from './views.js';
export { containsFolded } from './queries.js';
