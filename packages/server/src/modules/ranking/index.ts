/** Rankings and standings of activities. */
export { RankingService } from './service.js';
export { rankingRoutes } from './routes.js';
export { gradeOf, type Grade } from './grade.js';
