/** Sample runs: a participant's code judged on the samples only, never a submission. */
export { SampleRunsService } from './service.js';
export { sampleRunsRoutes } from './routes.js';
