/** The OpenID Connect providers accounts may sign in with. */
export { IdentityProvidersService, callbackPath } from './service.js';
export { identityProvidersRoutes } from './routes.js';
export { ProviderSignIn } from './sign-in.js';
