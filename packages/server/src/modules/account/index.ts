/** A signed-in user's own account, and the requests to delete accounts (an identity provider's back channel). */
export { AccountService } from './service.js';
export { accountRoutes } from './routes.js';
export { DeletionRequests } from './deletion-requests.js';
export { deletionRequestRoutes } from './deletion-routes.js';
export { DeletionSweeper } from './deletion-sweeper.js';
