import { defineOperation } from '../operation.js';
import { LoginQuery, LoginRequest, ManageInfo, RefreshRequest, RegisterRequest, TokenResponse } from '../schemas/identity.js';

export const register = defineOperation({
  id: 'register',
  method: 'POST',
  path: '/identity/register',
  tag: 'Identity',
  summary: 'Create an account with a password (only when local registration is enabled)',
  auth: 'anonymous',
  body: RegisterRequest,
  status: 204,
  errors: ['registration.closed', 'user.username.taken', 'user.email.taken', 'validation_failed', 'rate_limited'],
});

export const login = defineOperation({
  id: 'login',
  method: 'POST',
  path: '/identity/login',
  tag: 'Identity',
  summary: 'Sign in: a bearer token pair, or a session cookie with useCookies / useSessionCookies',
  description:
    'The `email` member takes the login name or the email address. Failure is 401 with `detail` one of Failed, LockedOut, NotAllowed, RequiresTwoFactor. With a cookie flag the answer is 200 with an empty body and the `judge_session` cookie.',
  auth: 'anonymous',
  query: LoginQuery,
  body: LoginRequest,
  response: TokenResponse,
  status: 200,
  errors: ['unauthenticated', 'validation_failed', 'rate_limited'],
});

export const refresh = defineOperation({
  id: 'refresh',
  method: 'POST',
  path: '/identity/refresh',
  tag: 'Identity',
  summary: 'Exchange a refresh token for a new pair; a rotated token presented again ends the session',
  auth: 'anonymous',
  body: RefreshRequest,
  response: TokenResponse,
  status: 200,
  errors: ['unauthenticated', 'validation_failed', 'rate_limited'],
});

export const logout = defineOperation({
  id: 'logout',
  method: 'POST',
  path: '/identity/logout',
  tag: 'Identity',
  summary: "End the caller's session and close its sockets",
  auth: 'user',
  status: 204,
  errors: ['unauthenticated'],
  extension: true,
});

export const getManageInfo = defineOperation({
  id: 'getManageInfo',
  method: 'GET',
  path: '/identity/manage/info',
  tag: 'Identity',
  summary: "The caller's email address and whether it is confirmed",
  auth: 'user',
  response: ManageInfo,
  status: 200,
  errors: ['unauthenticated'],
});

