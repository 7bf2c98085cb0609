/** A signed-in user's own account. */
export { AccountService } from './service.js';
export { accountRoutes } from './routes.js';
