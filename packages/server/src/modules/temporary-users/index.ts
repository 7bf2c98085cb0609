/** Temporary accounts: numbered guest logins for an event, which lapse on their own. */
export { TemporaryUsersService } from './service.js';
export { temporaryUsersRoutes } from './routes.js';
