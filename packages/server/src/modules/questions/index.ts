/** Questions and announcements: asking, answering, publishing, reading, and the canned answers. */
export { QuestionsService } from './service.js';
export { questionsRoutes } from './routes.js';
export { unanswered } from './queries.js';
