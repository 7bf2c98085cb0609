import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { AccountDeletionRequest, DeletionRequestReceipt, ProviderDeletionRequest } from '../schemas/providers.js';
import { Uuid } from '../wire.js';

const TAG = 'Account deletion';
const IdParam = z.object({ id: Uuid });

export const requestProviderDeletion = defineOperation({
  id: 'requestProviderDeletion',
  method: 'POST',
  path: '/identity/providers/{slug}/deletion-requests',
  tag: TAG,
  summary: "An identity provider's back channel asks for the account of one of its subjects to be deleted",
  description:
    "Authenticated by the provider's deletion secret (`Authorization: Bearer <secret>`), not by a session; 401 when the provider is unknown, its channel is off, it has no secret, or the secret is wrong (one answer for all). The request is recorded `pending` and carried out after `auth.providerDeletionHours` (24 h) unless an administrator halts it; an account with system permissions beyond a participant's is never emptied automatically (`attention`). A subject with no account here answers 202 too and records nothing; the same `requestId` again answers the first request.",
  auth: 'anonymous',
  params: z.object({ slug: z.string().max(64) }),
  body: ProviderDeletionRequest,
  response: DeletionRequestReceipt,
  status: 202,
  errors: ['unauthenticated', 'validation_failed'],
  extension: true,
  ignoresSession: true,
});

export const listDeletionRequests = defineOperation({
  id: 'listDeletionRequests',
  method: 'GET',
  path: '/account-deletion-requests',
  tag: TAG,
  summary: 'Account deletion requests, newest first (at most 500)',
  auth: 'user',
  response: z.array(AccountDeletionRequest),
  status: 200,
  errors: ['forbidden'],
  permission: 'user:update',
  extension: true,
});

export const haltDeletionRequest = defineOperation({
  id: 'haltDeletionRequest',
  method: 'POST',
  path: '/account-deletion-requests/{id}/halt',
  tag: TAG,
  summary: 'Halt a pending (or attention) deletion request: the account stays as it is',
  auth: 'user',
  params: IdParam,
  response: AccountDeletionRequest,
  status: 200,
  errors: ['forbidden', 'not_found', 'deletion.notPending'],
  permission: 'user:update',
  extension: true,
});

export const carryOutDeletionRequest = defineOperation({
  id: 'carryOutDeletionRequest',
  method: 'POST',
  path: '/account-deletion-requests/{id}/carry-out',
  tag: TAG,
  summary: 'Carry out a deletion request waiting for an administrator (attention): the account is anonymised now',
  description: 'Only for `attention` requests (409 `deletion.notAttention` otherwise); the last administrator is never emptied (409 `account.lastAdministrator`).',
  auth: 'user',
  params: IdParam,
  response: AccountDeletionRequest,
  status: 200,
  errors: ['forbidden', 'not_found', 'deletion.notAttention', 'account.lastAdministrator'],
  permission: 'system:administrator',
  extension: true,
});
