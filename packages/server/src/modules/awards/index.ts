/** Finalising an activity and its awards: winner, medals, first to solve, group winners (decisions §24). */
export { AwardsService } from './service.js';
export { awardsRoutes } from './routes.js';
export { computeAwards, groupKeyPart, type ComputedAward } from './compute.js';
