/** What participants see of an activity, and where they stand on each assignment. */
export { ParticipantService } from './service.js';
export { participantRoutes } from './routes.js';
export { standingOf, standingOnAssignment, standingsInActivity, type Standing } from './status.js';
