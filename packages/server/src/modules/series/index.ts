/** Series and their assignments, and the one owner of opening and closing them. */
export { SeriesService } from './service.js';
export { seriesRoutes } from './routes.js';
export { acceptsSubmissions, problemsVisible, type SeriesRow, type SeriesTransition } from './schedule.js';
