/** Scoreboards for the room: public boards, display links and their change feeds (decisions §23). */
export { ScoreboardsService } from './service.js';
export { scoreboardsRoutes } from './routes.js';
