import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { LtiKeyRotation, LtiKeySet, LtiLinkRequest, LtiPlatform, LtiPlatformRequest, LtiRegistration } from '../schemas/lti.js';
import { Uuid } from '../wire.js';

const IdParam = z.object({ id: Uuid });
const TAG = 'LTI platforms';
const REFUSED = ['forbidden', 'validation_failed', 'lti.platform.duplicate', 'lti.platform.url.insecure', 'lti.platform.identityNamespace.required'] as const;

export const listLtiPlatforms = defineOperation({
  id: 'listLtiPlatforms',
  method: 'GET',
  path: '/lti/platforms',
  tag: TAG,
  summary: 'The LMSs (LTI 1.3 platforms) that may launch the judge, by name',
  auth: 'user',
  response: z.array(LtiPlatform),
  status: 200,
  errors: ['forbidden'],
  permission: 'provider:manage',
});

export const createLtiPlatform = defineOperation({
  id: 'createLtiPlatform',
  method: 'POST',
  path: '/lti/platforms',
  tag: TAG,
  summary: 'Register an LMS as an LTI 1.3 platform (answers 200 with Location)',
  description:
    'URLs must be https, except http on this machine (localhost, 127.0.0.1, [::1]): 422 `lti.platform.url.insecure`. (issuer, clientId, deploymentId) is one registration: a second is 409 `lti.platform.duplicate`. An identity authority needs `identityNamespace` (422 `lti.platform.identityNamespace.required`). `usernameClaim` defaults to email, `enabled` to true.',
  auth: 'user',
  body: LtiPlatformRequest,
  response: LtiPlatform,
  status: 200,
  errors: [...REFUSED],
  permission: 'provider:manage',
});

export const getLtiPlatform = defineOperation({
  id: 'getLtiPlatform',
  method: 'GET',
  path: '/lti/platforms/{id}',
  tag: TAG,
  summary: 'One LTI platform',
  auth: 'user',
  params: IdParam,
  response: LtiPlatform,
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'provider:manage',
});

export const updateLtiPlatform = defineOperation({
  id: 'updateLtiPlatform',
  method: 'PUT',
  path: '/lti/platforms/{id}',
  tag: TAG,
  summary: 'Replace an LTI platform (the same rules as POST; absent optional members take their defaults)',
  auth: 'user',
  params: IdParam,
  body: LtiPlatformRequest,
  response: LtiPlatform,
  status: 200,
  errors: [...REFUSED, 'not_found'],
  permission: 'provider:manage',
});

export const deleteLtiPlatform = defineOperation({
  id: 'deleteLtiPlatform',
  method: 'DELETE',
  path: '/lti/platforms/{id}',
  tag: TAG,
  summary: 'Remove a platform no account is linked to and no link is placed with (409 lti.platform.inUse otherwise: disable it instead)',
  auth: 'user',
  params: IdParam,
  status: 204,
  errors: ['forbidden', 'not_found', 'lti.platform.inUse'],
  permission: 'provider:manage',
});

export const getLtiRegistration = defineOperation({
  id: 'getLtiRegistration',
  method: 'GET',
  path: '/lti/platforms/{id}/registration',
  tag: TAG,
  summary: 'What to enter in the LMS: the tool, login, redirect and key set URLs, and the custom parameters a link sets',
  description: 'The URLs are under the configured public URL, else the origin of this request.',
  auth: 'user',
  params: IdParam,
  response: LtiRegistration,
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'provider:manage',
});

export const linkLtiAccount = defineOperation({
  id: 'linkLtiAccount',
  method: 'POST',
  path: '/lti/platforms/{id}/links',
  tag: TAG,
  summary: 'Link an account to the platform\'s user `subject` (its sub), so that launches by that user sign the account in',
  description:
    'For a platform that is not an identity authority, the only way its users reach an account. A launch by an unlinked user shows the platform and their sub to pass on. Linking the same pair again changes nothing; a subject linked to another account is 409 `lti.link.taken`; an unknown account is 404.',
  auth: 'user',
  params: IdParam,
  body: LtiLinkRequest,
  status: 204,
  errors: ['forbidden', 'not_found', 'validation_failed', 'lti.link.taken'],
  permission: 'provider:manage',
  extension: true,
});

const LoginQuery = z.object({
  iss: z.string().max(500).optional(),
  login_hint: z.string().max(2000).optional(),
  target_link_uri: z.string().max(2000).optional(),
  lti_message_hint: z.string().max(4000).optional(),
  client_id: z.string().max(256).optional(),
  lti_deployment_id: z.string().max(256).optional(),
});

const LOGIN_DESCRIPTION =
  'OIDC third-party login initiation (LTI 1.3): `iss`, `login_hint`, `target_link_uri`, optional `lti_message_hint`, `client_id`, `lti_deployment_id`. Answers 302 to the platform\'s authLoginUrl (scope openid, response_type id_token, response_mode form_post, prompt none, a state and a nonce kept ten minutes), or an HTML page with the code `lti.login.unknown` (400) when no enabled platform has that issuer, client and deployment.';

export const ltiLoginGet = defineOperation({
  id: 'ltiLoginGet',
  method: 'GET',
  path: '/lti/login',
  tag: TAG,
  summary: 'LTI login initiation (query parameters): 302 to the platform',
  description: LOGIN_DESCRIPTION,
  auth: 'anonymous',
  query: LoginQuery,
  response: 'redirect',
  status: 302,
  errors: [],
  extension: true,
});

export const ltiLoginPost = defineOperation({
  id: 'ltiLoginPost',
  method: 'POST',
  path: '/lti/login',
  tag: TAG,
  summary: 'LTI login initiation (an application/x-www-form-urlencoded body with the same parameters): 302 to the platform',
  description: LOGIN_DESCRIPTION,
  auth: 'anonymous',
  response: 'redirect',
  status: 302,
  errors: [],
  extension: true,
  ignoresSession: true,
});

export const ltiLaunch = defineOperation({
  id: 'ltiLaunch',
  method: 'POST',
  path: '/lti/launch',
  tag: TAG,
  summary: 'The launch: the platform\'s form post of id_token and state; signs in and 302s to the activity',
  description:
    'An application/x-www-form-urlencoded body with `id_token` and `state`. The ID token is verified against the platform\'s key set (RS256 signature, iss, aud and azp, exp and iat, the nonce issued with the state, which works once), then the deployment id, message type LtiResourceLinkRequest and version 1.3.0. A top-level launch sets a browser-session cookie and answers 302 to `/a/SLUG` (a learner; `/a/SLUG/p/PROBLEM` for a problem\'s link) or `/staff/a/SLUG` (an instructor). A launch inside a frame (`Sec-Fetch-Dest: iframe`) answers a page that opens the judge in a window of its own through `/lti/continue/{ticket}`. A refusal is an HTML page carrying only its code (400 for a launch that does not verify, 403 for one the judge refuses): lti.launch.state, lti.launch.token, lti.launch.nonce, lti.launch.deployment, lti.launch.message, lti.launch.subject, lti.platform.disabled, lti.launch.unlinked, lti.launch.activity, lti.launch.placement, lti.launch.account.',
  auth: 'anonymous',
  response: 'redirect',
  status: 302,
  errors: [],
  extension: true,
  ignoresSession: true,
});

export const ltiContinue = defineOperation({
  id: 'ltiContinue',
  method: 'GET',
  path: '/lti/continue/{ticket}',
  tag: TAG,
  summary: 'Where a launch made inside a frame continues in a window of its own: sets the session cookie and 302s to the activity',
  description: 'A ticket works once, for two minutes; otherwise an HTML page with the code lti.continue.ticket (400).',
  auth: 'anonymous',
  params: z.object({ ticket: z.string().max(100) }),
  response: 'redirect',
  status: 302,
  errors: [],
  extension: true,
});

export const ltiKeySet = defineOperation({
  id: 'ltiKeySet',
  method: 'GET',
  path: '/lti/jwks.json',
  tag: TAG,
  summary: "The judge's public keys (JWKS): the current signing key and those retired less than a day ago",
  auth: 'anonymous',
  response: LtiKeySet,
  status: 200,
  errors: [],
  extension: true,
});

export const rotateLtiKey = defineOperation({
  id: 'rotateLtiKey',
  method: 'POST',
  path: '/lti/keys/rotate',
  tag: TAG,
  summary: 'Make a new signing key; the previous one stays published for a day, so platforms that cached it go on verifying',
  auth: 'user',
  response: LtiKeyRotation,
  status: 200,
  errors: ['forbidden'],
  permission: 'provider:manage',
  extension: true,
});
