/** The instance's own settings. */
export { InstanceService } from './service.js';
export { instanceRoutes } from './routes.js';
