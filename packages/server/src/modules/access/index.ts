/** Roles, grants and who holds them. */
export { AccessService, grantBuiltInRole, grantBuiltInRoleNow } from './service.js';
export { accessRoutes } from './routes.js';
