/** Sign-in, sign-out, tokens and self-registration. */
export { IdentityService } from './service.js';
export { identityRoutes } from './routes.js';
