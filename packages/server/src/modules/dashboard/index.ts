/** The activity dashboard: the figures its staff watch during a contest, read in one request. */
export { DashboardService } from './service.js';
export { dashboardRoutes } from './routes.js';
