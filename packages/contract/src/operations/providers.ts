import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { IdentityProvider, IdentityProviderRequest } from '../schemas/providers.js';
import { Uuid } from '../wire.js';

const IdParam = z.object({ id: Uuid });
const TAG = 'Identity providers';
const REFUSED = [
  'forbidden',
  'validation_failed',
  'provider.slug.taken',
  'provider.rule.template.unknown',
  'provider.rule.administrator',
  'provider.rule.excess',
  'provider.defaultTemplate.required',
  'provider.issuer.insecure',
] as const;

export const listProviders = defineOperation({
  id: 'listProviders',
  method: 'GET',
  path: '/identity/providers',
  tag: TAG,
  summary: 'The OpenID Connect providers accounts may sign in with; secrets show only as hasClientSecret/hasDeletionSecret',
  auth: 'user',
  response: z.array(IdentityProvider),
  status: 200,
  errors: ['forbidden'],
  permission: 'provider:manage',
});

export const createProvider = defineOperation({
  id: 'createProvider',
  method: 'POST',
  path: '/identity/providers',
  tag: TAG,
  summary: 'Add an OpenID Connect provider',
  description:
    'Mapping rules give a role system-wide to accounts whose claim at `claimPath` holds `claimValue`; a rule may not name a role with system:administrator (403 `provider.rule.administrator`) nor one with keys the caller lacks (403 `provider.rule.excess`). With `unmappedBehavior: defaultTemplate` the default role is needed (422 `provider.defaultTemplate.required`).',
  auth: 'user',
  body: IdentityProviderRequest,
  response: IdentityProvider,
  status: 201,
  errors: [...REFUSED],
  permission: 'provider:manage',
});

export const getProvider = defineOperation({
  id: 'getProvider',
  method: 'GET',
  path: '/identity/providers/{id}',
  tag: TAG,
  summary: 'One identity provider',
  auth: 'user',
  params: IdParam,
  response: IdentityProvider,
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'provider:manage',
});

export const updateProvider = defineOperation({
  id: 'updateProvider',
  method: 'PUT',
  path: '/identity/providers/{id}',
  tag: TAG,
  summary: 'Replace an identity provider (secrets: absent keeps, empty removes)',
  auth: 'user',
  params: IdParam,
  body: IdentityProviderRequest,
  response: IdentityProvider,
  status: 200,
  errors: [...REFUSED, 'not_found'],
  permission: 'provider:manage',
});

export const deleteProvider = defineOperation({
  id: 'deleteProvider',
  method: 'DELETE',
  path: '/identity/providers/{id}',
  tag: TAG,
  summary: 'Remove an identity provider no account is linked to (409 provider.linked otherwise: disable it instead)',
  auth: 'user',
  params: IdParam,
  status: 204,
  errors: ['forbidden', 'not_found', 'provider.linked'],
  permission: 'provider:manage',
});

const SlugParam = z.object({ slug: z.string().max(64) });

export const providerChallenge = defineOperation({
  id: 'providerChallenge',
  method: 'GET',
  path: '/identity/providers/{slug}/challenge',
  tag: TAG,
  summary: 'Start signing in through a provider: 302 to its authorization page',
  description:
    'Authorization code with PKCE, state and nonce. `returnUrl` (a path of this site) is where the browser lands once signed in; `remember=true` signs in with the persistent cookie, otherwise with a browser-session cookie. 404 when the provider is unknown or disabled.',
  auth: 'anonymous',
  params: SlugParam,
  query: z.object({ returnUrl: z.string().max(1000).optional(), remember: z.enum(['true', 'false']).optional() }),
  response: 'redirect',
  status: 302,
  errors: ['not_found'],
  extension: true,
});

export const providerCallback = defineOperation({
  id: 'providerCallback',
  method: 'GET',
  path: '/identity/providers/{slug}/callback',
  tag: TAG,
  summary: 'Where the provider sends the browser back: signs in and 302s to the returnUrl, or to /sign-in?provider=SLUG&error=CODE',
  description:
    'The ID token is verified against the provider’s keys (signature, issuer, audience, nonce). The first sign-in links the account with the provider’s verified address, or creates one; the mapping rules give its system roles at every sign-in. Refusal codes: provider.ticket.missing (state unknown, used or older than ten minutes), provider.refused (the provider or the token said no, or the account is blocked), provider.unmapped (no rule matches under deny), provider.subject.missing, maintenance.',
  auth: 'anonymous',
  params: SlugParam,
  query: z.object({
    code: z.string().max(4000).optional(),
    state: z.string().max(500).optional(),
    iss: z.string().max(500).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(1000).optional(),
  }),
  response: 'redirect',
  status: 302,
  errors: ['not_found'],
  extension: true,
});
