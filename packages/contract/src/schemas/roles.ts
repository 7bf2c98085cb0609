import { z } from 'zod';
import { Timestamp, Uuid } from '../wire.js';

export const Role = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  permissions: z.array(z.string()),
  isBuiltIn: z.boolean(),
  builtInKey: z.string().optional(),
  activityId: z.string().optional(),
  activityName: z.string().optional(),
  grants: z.number().int(),
  mappedBy: z.array(z.string()),
});
export type Role = z.infer<typeof Role>;

export const RolesQuery = z.object({ activityId: Uuid.optional() });

export const RoleRequest = z.object({
  name: z.string().trim().min(1).max(64),
  description: z.string().max(500).optional(),
  permissions: z.array(z.string().min(1).max(64)).max(100),
  activityId: Uuid.optional().meta({ description: 'Makes the role usable only in this activity (on create only)' }),
});

export const Grant = z.object({
  id: z.string(),
  userId: z.string(),
  userName: z.string(),
  roleId: z.string(),
  roleName: z.string(),
  activityId: z.string().optional(),
  activityName: z.string().optional(),
  overrideSystem: z.boolean(),
  permissions: z.array(z.string()),
  createdAt: Timestamp,
});
export type Grant = z.infer<typeof Grant>;

export const GrantsQuery = z.object({
  page: z.coerce.number().int().optional(),
  pageSize: z.coerce.number().int().optional(),
  userId: z.string().max(64).optional(),
  activityId: Uuid.optional(),
});

export const GrantRequest = z.object({
  userId: z.string().min(1).max(64),
  roleId: Uuid,
  activityId: Uuid.optional(),
  overrideSystem: z.boolean().optional(),
});

export const PermissionEntry = z.object({
  key: z.string(),
  group: z.string(),
  scope: z.enum(['system', 'activity']),
  description: z.string(),
});

export const PermissionsMineQuery = z.object({ activityId: Uuid.optional() });
