/** What participants see of an activity, and where they stand on each assignment. */
export { ParticipantService } from './service.js';
export { participantRoutes } from './routes.js';
export { Standings, standingOf, type Standing } from './status.js';
