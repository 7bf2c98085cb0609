/** The instance's own settings. */
export { InstanceService } from './service.js';
export { instanceRoutes } from './routes.js';
export { Maintenance, maintenanceGate, admitSignIn, RETRY_AFTER_SECONDS } from './maintenance.js';
