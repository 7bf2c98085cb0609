import { defineOperation } from '../operation.js';
import { ConfirmEmailQuery, LoginQuery, LoginRequest, MailRequest, ManageInfo, RefreshRequest, RegisterRequest, ResetPasswordRequest, TokenResponse, TwoFactorRequest, TwoFactorState, UpdateManageInfoRequest } from '../schemas/identity.js';

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


export const updateManageInfo = defineOperation({
  id: 'updateManageInfo',
  method: 'POST',
  path: '/identity/manage/info',
  tag: 'Identity',
  summary: "Change the caller's address (confirmed by a mailed code) or password",
  description:
    'A `newEmail` is not stored until the code mailed to it is confirmed (`GET /identity/confirmEmail` with `changedEmail`); the answer shows the address in use. A `newPassword` needs `oldPassword` and ends every other session of the caller.',
  auth: 'user',
  body: UpdateManageInfoRequest,
  response: ManageInfo,
  status: 200,
  errors: ['unauthenticated', 'account.password.wrong', 'user.email.taken', 'validation_failed'],
});

export const manageTwoFactor = defineOperation({
  id: 'manageTwoFactor',
  method: 'POST',
  path: '/identity/manage/2fa',
  tag: 'Identity',
  summary: "Read or change the caller's two-factor sign-in (TOTP)",
  description:
    'An empty body reads the state (and makes the shared key the first time). `enable: true` with a `twoFactorCode` from the authenticator turns it on and, when none are left, makes 10 recovery codes, shown in that answer only. `enable: false` turns it off; `resetSharedKey` makes a new key and turns it off until a code of the new key enables it; both forget every remembered browser. Sign-in then asks for `twoFactorCode` or `twoFactorRecoveryCode` (401 `RequiresTwoFactor`), except in a browser remembered after a persistent (`useCookies`) sign-in with a code.',
  auth: 'user',
  body: TwoFactorRequest,
  response: TwoFactorState,
  status: 200,
  errors: ['unauthenticated', 'twoFactor.code.required', 'twoFactor.code.invalid', 'twoFactor.resetAndEnable', 'validation_failed'],
});

export const confirmEmail = defineOperation({
  id: 'confirmEmail',
  method: 'GET',
  path: '/identity/confirmEmail',
  tag: 'Identity',
  summary: 'Confirm an address with the code mailed to it (or a change of address, with changedEmail)',
  description: 'A code is single-use and expires (48 hours); a wrong, spent or expired code, or one for another account, answers 422 identity.code.invalid.',
  auth: 'anonymous',
  query: ConfirmEmailQuery,
  status: 204,
  errors: ['identity.code.invalid', 'user.email.taken', 'validation_failed', 'rate_limited'],
});

export const resendConfirmationEmail = defineOperation({
  id: 'resendConfirmationEmail',
  method: 'POST',
  path: '/identity/resendConfirmationEmail',
  tag: 'Identity',
  summary: 'Mail a new confirmation code to an unconfirmed address',
  description: 'Answers 204 whether or not an unconfirmed account has the address, in the same time: what is mailed is decided after the answer.',
  auth: 'anonymous',
  body: MailRequest,
  status: 204,
  errors: ['validation_failed', 'rate_limited'],
});

export const forgotPassword = defineOperation({
  id: 'forgotPassword',
  method: 'POST',
  path: '/identity/forgotPassword',
  tag: 'Identity',
  summary: 'Mail a password reset code to the account with this address',
  description: 'Answers 204 whether or not an account has the address, in the same time: what is mailed is decided after the answer. A code is single-use and expires after an hour.',
  auth: 'anonymous',
  body: MailRequest,
  status: 204,
  errors: ['validation_failed', 'rate_limited'],
});

export const resetPassword = defineOperation({
  id: 'resetPassword',
  method: 'POST',
  path: '/identity/resetPassword',
  tag: 'Identity',
  summary: 'Set a new password with a mailed reset code; every session of the account ends',
  description: 'A wrong, spent or expired code, or an address no account has, answers 422 identity.code.invalid alike.',
  auth: 'anonymous',
  body: ResetPasswordRequest,
  status: 204,
  errors: ['identity.code.invalid', 'validation_failed', 'rate_limited'],
});
