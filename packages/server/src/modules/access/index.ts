/** Roles, grants and who holds them. */
export { AccessService, grantBuiltInRole } from './service.js';
export { accessRoutes } from './routes.js';
