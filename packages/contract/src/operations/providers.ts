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
