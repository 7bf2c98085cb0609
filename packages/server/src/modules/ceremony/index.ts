/** The award ceremony: the resolver's steps from the frozen standings to the final ones, and the presenter's step. */
export { CeremonyService, type AwardsOf, type CeremonyAward } from './service.js';
export { ceremonyRoutes } from './routes.js';
