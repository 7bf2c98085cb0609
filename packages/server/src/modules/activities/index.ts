/** Activities: contests and courses, their documents, publication, copies and enrolment. */
export { ActivitiesService } from './service.js';
export { activitiesRoutes } from './routes.js';
export { toActivity } from './views.js';
