import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { Session } from '../schemas/identity.js';
import {
  Account,
  AccountLink,
  BlockRequest,
  ChangePasswordRequest,
  CreateUserRequest,
  DeleteAccountRequest,
  IssuedCredentials,
  TemporaryUsersRequest,
  ManagedUser,
  ManagedUsersQuery,
  MergePreview,
  MergeRecord,
  MergeRequest,
  UpdateAccountRequest,
  UpdateUserRequest,
  UserLookup,
  UsersQuery,
} from '../schemas/users.js';
import { Uuid, paged } from '../wire.js';

const UserIdParam = z.object({ id: z.string().max(64) });

export const lookupUsers = defineOperation({
  id: 'lookupUsers',
  method: 'GET',
  path: '/users',
  tag: 'Users',
  summary: 'Find users by login, name or email (at most 20; blank q answers [])',
  auth: 'user',
  query: UsersQuery,
  response: z.array(UserLookup),
  status: 200,
  errors: ['forbidden'],
  permission: 'user:read:all',
});

export const createUser = defineOperation({
  id: 'createUser',
  method: 'POST',
  path: '/users',
  tag: 'Users',
  summary: 'Create an account; its password is generated and returned once',
  auth: 'user',
  body: CreateUserRequest,
  response: IssuedCredentials,
  status: 201,
  errors: ['forbidden', 'user.username.taken', 'user.email.taken', 'validation_failed'],
  permission: 'user:create',
});

export const listManagedUsers = defineOperation({
  id: 'listManagedUsers',
  method: 'GET',
  path: '/users/managed',
  tag: 'Users',
  summary: 'Accounts with their administrative fields, paged',
  auth: 'user',
  query: ManagedUsersQuery,
  response: paged(ManagedUser),
  status: 200,
  errors: ['forbidden'],
  permission: 'user:read:all',
});

export const getManagedUser = defineOperation({
  id: 'getManagedUser',
  method: 'GET',
  path: '/users/managed/{id}',
  tag: 'Users',
  summary: 'One account with its administrative fields',
  auth: 'user',
  params: UserIdParam,
  response: ManagedUser,
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'user:read:all',
  extension: true,
});

export const updateUser = defineOperation({
  id: 'updateUser',
  method: 'PUT',
  path: '/users/{id}',
  tag: 'Users',
  summary: "Edit an account's names, address, note, tags and expiry",
  auth: 'user',
  params: UserIdParam,
  body: UpdateUserRequest,
  response: ManagedUser,
  status: 200,
  errors: ['forbidden', 'not_found', 'user.email.taken', 'validation_failed'],
  permission: 'user:update',
});

export const setUserBlocked = defineOperation({
  id: 'setUserBlocked',
  method: 'POST',
  path: '/users/{id}/blocked',
  tag: 'Users',
  summary: 'Block (ends every session and socket) or unblock an account',
  auth: 'user',
  params: UserIdParam,
  body: BlockRequest,
  response: ManagedUser,
  status: 200,
  errors: ['forbidden', 'not_found', 'user.self', 'validation_failed'],
  permission: 'user:block',
});

export const resetUserPassword = defineOperation({
  id: 'resetUserPassword',
  method: 'POST',
  path: '/users/{id}/password',
  tag: 'Users',
  summary: 'Issue a new generated password; the account is signed out everywhere',
  auth: 'user',
  params: UserIdParam,
  response: IssuedCredentials,
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'user:update',
});

export const listUserSessions = defineOperation({
  id: 'listUserSessions',
  method: 'GET',
  path: '/users/{userId}/sessions',
  tag: 'Users',
  summary: "A user's live sessions, newest first, with their open socket counts",
  auth: 'user',
  params: z.object({ userId: z.string().max(64) }),
  response: z.array(Session),
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'user:read:all',
});

export const endUserSession = defineOperation({
  id: 'endUserSession',
  method: 'DELETE',
  path: '/users/{userId}/sessions/{id}',
  tag: 'Users',
  summary: "End one of a user's sessions",
  auth: 'user',
  params: z.object({ userId: z.string().max(64), id: Uuid }),
  status: 204,
  errors: ['forbidden', 'not_found'],
  permission: 'user:update',
  extension: true,
});

export const endUserSessions = defineOperation({
  id: 'endUserSessions',
  method: 'DELETE',
  path: '/users/{userId}/sessions',
  tag: 'Users',
  summary: "End every session of a user (the caller's own current one excepted); sockets close",
  auth: 'user',
  params: z.object({ userId: z.string().max(64) }),
  status: 204,
  errors: ['forbidden', 'not_found'],
  permission: 'user:update',
  extension: true,
});

export const getAccount = defineOperation({
  id: 'getAccount',
  method: 'GET',
  path: '/account',
  tag: 'Account',
  summary: "The caller's own account",
  auth: 'user',
  response: Account,
  status: 200,
  errors: ['unauthenticated'],
});

export const updateAccount = defineOperation({
  id: 'updateAccount',
  method: 'PUT',
  path: '/account',
  tag: 'Account',
  summary: "Change the caller's names, login or address",
  auth: 'user',
  body: UpdateAccountRequest,
  response: Account,
  status: 200,
  errors: ['unauthenticated', 'account.nameFixed', 'user.username.taken', 'user.email.taken', 'validation_failed'],
});

export const changePassword = defineOperation({
  id: 'changePassword',
  method: 'POST',
  path: '/account/password',
  tag: 'Account',
  summary: "Change the caller's password; other sessions end",
  auth: 'user',
  body: ChangePasswordRequest,
  status: 204,
  errors: ['unauthenticated', 'account.password.wrong', 'validation_failed'],
});

export const listAccountSessions = defineOperation({
  id: 'listAccountSessions',
  method: 'GET',
  path: '/account/sessions',
  tag: 'Account',
  summary: "The caller's own live sessions",
  auth: 'user',
  response: z.array(Session),
  status: 200,
  errors: ['unauthenticated'],
  extension: true,
});

export const endAccountSession = defineOperation({
  id: 'endAccountSession',
  method: 'DELETE',
  path: '/account/sessions/{id}',
  tag: 'Account',
  summary: 'End one of the caller\'s own sessions',
  auth: 'user',
  params: z.object({ id: Uuid }),
  status: 204,
  errors: ['unauthenticated', 'not_found'],
  extension: true,
});

export const createTemporaryUsers = defineOperation({
  id: 'createTemporaryUsers',
  method: 'POST',
  path: '/users/temporary',
  tag: 'Users',
  summary: 'Create numbered temporary accounts with generated passwords, returned once',
  description:
    'Each account is temporary: past `expiresAt` it cannot sign in (NotAllowed), and 30 days later the retention worker removes it unless it has submitted. With `activityId` the accounts are enrolled there as participants, and `user:create:temporary` is asked there.',
  auth: 'user',
  body: TemporaryUsersRequest,
  response: z.array(IssuedCredentials),
  status: 201,
  errors: ['forbidden', 'not_found', 'activity.archived', 'validation_failed'],
  permission: 'user:create:temporary',
});

export const approveUser = defineOperation({
  id: 'approveUser',
  method: 'POST',
  path: '/users/{id}/approve',
  tag: 'Users',
  summary: 'Approve a self-registered account, so that it may enrol (requireApproval)',
  description: 'An approved account stays as it is.',
  auth: 'user',
  params: UserIdParam,
  response: ManagedUser,
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'user:update',
});

const MergeIdParam = z.object({ mergeId: z.string().max(64) });

export const previewMerge = defineOperation({
  id: 'previewMerge',
  method: 'POST',
  path: '/users/{id}/merge-preview',
  tag: 'Users',
  summary: 'What merging this account into the target would move, and what stands in the way',
  auth: 'user',
  params: UserIdParam,
  body: MergeRequest,
  response: MergePreview,
  status: 200,
  errors: ['forbidden', 'not_found', 'validation_failed'],
  permission: 'user:merge',
});

export const mergeUsers = defineOperation({
  id: 'mergeUsers',
  method: 'POST',
  path: '/users/{id}/merge',
  tag: 'Users',
  summary: 'Merge this account (the source) into the target',
  description:
    "The source's submissions, questions, memberships and other grants, uploaded files, printouts, problem ownership and shares move to the target, and the ranking follows; the source is blocked and signed out everywhere. Until `anonymiseAfter` (30 days) the merge can be undone; then the source is anonymised. Refused with 409 `merge.blocked` when the preview lists blockers.",
  auth: 'user',
  params: UserIdParam,
  body: MergeRequest,
  response: MergeRecord,
  status: 200,
  errors: ['forbidden', 'not_found', 'merge.blocked', 'validation_failed'],
  permission: 'user:merge',
});

export const undoMerge = defineOperation({
  id: 'undoMerge',
  method: 'POST',
  path: '/users/merges/{mergeId}/undo',
  tag: 'Users',
  summary: 'Undo a merge: what moved goes back to the source, which is unblocked',
  description: 'Only while `canUndo`: not undone, not anonymised, and the target not merged on since (409 `merge.undo.unavailable`).',
  auth: 'user',
  params: MergeIdParam,
  response: MergeRecord,
  status: 200,
  errors: ['forbidden', 'not_found', 'merge.undo.unavailable'],
  permission: 'user:merge',
});

export const listUserMerges = defineOperation({
  id: 'listUserMerges',
  method: 'GET',
  path: '/users/{id}/merges',
  tag: 'Users',
  summary: 'The merges this account was the source or the target of, newest first',
  auth: 'user',
  params: UserIdParam,
  response: z.array(MergeRecord),
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'user:merge',
  extension: true,
});

export const listAccountLinks = defineOperation({
  id: 'listAccountLinks',
  method: 'GET',
  path: '/account/links',
  tag: 'Account',
  summary: 'The identity providers the account signs in with besides (or instead of) its password',
  auth: 'user',
  response: z.array(AccountLink),
  status: 200,
  errors: ['unauthenticated'],
});

export const exportAccount = defineOperation({
  id: 'exportAccount',
  method: 'GET',
  path: '/account/export',
  tag: 'Account',
  summary: 'Everything the judge holds about the caller, as a zip (streamed)',
  description:
    'account.json (the profile), sessions.json, grants.json (roles and where), submissions.json (with verdicts, scores and attempts) and each submission\'s files under submissions/, questions.json, printouts.json and merges.json; README.txt says what each holds. Secrets (password hash, two-factor key, tokens) are never in it.',
  auth: 'user',
  response: 'binary',
  status: 200,
  errors: ['unauthenticated'],
});

export const deleteAccount = defineOperation({
  id: 'deleteAccount',
  method: 'POST',
  path: '/account/delete',
  tag: 'Account',
  summary: "Delete the caller's account (when the instance allows it): it is anonymised and signed out everywhere",
  description:
    'Needs the password. Login, names, address, password and two-factor key are removed, the sources of the submissions and the printouts are deleted, and the questions asked read [deleted]. Contest results stay, under the placeholder login deleted-… . The last administrator cannot delete their account.',
  auth: 'user',
  body: DeleteAccountRequest,
  status: 204,
  errors: ['unauthenticated', 'account.deletion.disabled', 'account.password.wrong', 'account.lastAdministrator', 'validation_failed'],
});
