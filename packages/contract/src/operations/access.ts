import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { Grant, GrantRequest, GrantsQuery, PermissionEntry, PermissionsMineQuery, Role, RoleRequest, RolesQuery } from '../schemas/roles.js';
import { Uuid, paged } from '../wire.js';

const IdParam = z.object({ id: Uuid });

export const listRoles = defineOperation({
  id: 'listRoles',
  method: 'GET',
  path: '/roles',
  tag: 'Roles',
  summary: 'System roles, plus the roles of one activity when activityId is given',
  auth: 'user',
  query: RolesQuery,
  response: z.array(Role),
  status: 200,
  errors: ['forbidden'],
  permission: 'role:read',
});

export const createRole = defineOperation({
  id: 'createRole',
  method: 'POST',
  path: '/roles',
  tag: 'Roles',
  summary: 'Create a role (a named set of permissions)',
  auth: 'user',
  body: RoleRequest,
  response: Role,
  status: 201,
  errors: ['forbidden', 'role.name.taken', 'grant.permission.unknown', 'grant.excess', 'validation_failed'],
  permission: 'role:manage',
});

export const updateRole = defineOperation({
  id: 'updateRole',
  method: 'PUT',
  path: '/roles/{id}',
  tag: 'Roles',
  summary: "Rename a role or change its permissions; every grant of it follows",
  auth: 'user',
  params: IdParam,
  body: RoleRequest,
  response: Role,
  status: 200,
  errors: ['forbidden', 'not_found', 'role.name.taken', 'grant.permission.unknown', 'grant.excess', 'role.activity.mismatch', 'validation_failed'],
  permission: 'role:manage',
});

export const deleteRole = defineOperation({
  id: 'deleteRole',
  method: 'DELETE',
  path: '/roles/{id}',
  tag: 'Roles',
  summary: 'Delete a role that is not built in and not granted to anyone',
  auth: 'user',
  params: IdParam,
  status: 204,
  errors: ['forbidden', 'not_found', 'role.builtIn', 'role.inUse'],
  permission: 'role:manage',
});

export const listGrants = defineOperation({
  id: 'listGrants',
  method: 'GET',
  path: '/grants',
  tag: 'Grants',
  summary: 'Grants, filtered by user and/or activity',
  auth: 'user',
  query: GrantsQuery,
  response: paged(Grant),
  status: 200,
  errors: ['forbidden'],
  permission: 'grant:read:all',
  extension: true,
});

export const createGrant = defineOperation({
  id: 'createGrant',
  method: 'POST',
  path: '/grants',
  tag: 'Grants',
  summary: 'Give a user a role, system-wide or in one activity (an activity grant is the membership)',
  description: 'One grant per user and activity: granting again in the same activity replaces the role. Nobody can grant a permission they do not hold.',
  auth: 'user',
  body: GrantRequest,
  response: Grant,
  status: 201,
  errors: ['forbidden', 'not_found', 'grant.excess', 'grant.override.administrator', 'role.activity.mismatch', 'validation_failed'],
  permission: 'grant:update',
  extension: true,
});

export const deleteGrant = defineOperation({
  id: 'deleteGrant',
  method: 'DELETE',
  path: '/grants/{id}',
  tag: 'Grants',
  summary: 'Take a grant away',
  auth: 'user',
  params: IdParam,
  status: 204,
  errors: ['forbidden', 'not_found', 'grant.excess'],
  permission: 'grant:update',
  extension: true,
});

export const listPermissions = defineOperation({
  id: 'listPermissions',
  method: 'GET',
  path: '/permissions',
  tag: 'Grants',
  summary: 'The permission catalogue',
  auth: 'user',
  response: z.array(PermissionEntry),
  status: 200,
  errors: [],
  extension: true,
});

export const myPermissions = defineOperation({
  id: 'myPermissions',
  method: 'GET',
  path: '/permissions/mine',
  tag: 'Grants',
  summary: "The caller's effective permissions, system-wide or in one activity",
  auth: 'user',
  query: PermissionsMineQuery,
  response: z.array(z.string()),
  status: 200,
  errors: [],
  extension: true,
});
