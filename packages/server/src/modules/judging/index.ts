/** Judging: jobs, leases, deliveries, the reaping of lapsed leases, trials and the outcome of a report. */
export { Judging } from './judging.js';
export { JobsService } from './jobs.js';
export { TrialsService } from './trials.js';
export { SubmissionOutcome, type RankingHooks } from './outcome.js';
export { judgingRoutes } from './routes.js';
export { SampleRunQueue } from './sample-run-queue.js';
