import { z } from 'zod';
import { Email, InstantInput, Password, QueryBoolean, Timestamp, Username } from '../wire.js';

export const UserLookup = z.object({ id: z.string(), username: z.string(), name: z.string().optional(), email: z.string().optional() });
export type UserLookup = z.infer<typeof UserLookup>;

export const ManagedUser = z.object({
  id: z.string(),
  username: z.string(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  email: z.string().optional(),
  emailConfirmed: z.boolean(),
  approvedAt: Timestamp.optional(),
  note: z.string().optional(),
  tags: z.array(z.string()),
  isTemporary: z.boolean(),
  expiresAt: Timestamp.optional(),
  blockedAt: Timestamp.optional(),
  blockedReason: z.string().optional(),
  createdAt: Timestamp,
  lastSeenAt: Timestamp.optional(),
  twoFactorEnabled: z.boolean().meta({ description: 'Whether the owner signs in with a second factor (extension)' }),
  grantCount: z.number().int(),
});
export type ManagedUser = z.infer<typeof ManagedUser>;

export const IssuedCredentials = z.object({ userId: z.string(), username: z.string(), password: z.string() });
export type IssuedCredentials = z.infer<typeof IssuedCredentials>;

export const TemporaryUsersRequest = z.object({
  prefix: z
    .string()
    .min(1)
    .max(40)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, dot, dash and underscore, starting with a letter or digit')
    .meta({ description: 'The logins are this followed by a number: guest01, guest02 … (taken ones are skipped)' }),
  count: z.number().int().min(1).max(500),
  expiresAt: InstantInput.optional().meta({ description: 'When the accounts stop signing in (extension); default: seven days from now' }),
  activityId: z.string().max(64).optional().meta({ description: 'Enrol them as participants here (extension); the permission is then asked here' }),
});

export const CreateUserRequest = z.object({
  username: Username,
  firstName: z.string().max(100).optional(),
  lastName: z.string().max(100).optional(),
  email: Email.optional(),
  note: z.string().max(2000).optional(),
  tags: z.array(z.string().min(1).max(64)).max(50).optional(),
});

export const UsersQuery = z.object({ q: z.string().max(200).optional() });

export const ManagedUsersQuery = z.object({
  page: z.coerce.number().int().optional(),
  pageSize: z.coerce.number().int().optional(),
  search: z.string().max(200).optional(),
  includeBlocked: QueryBoolean.optional(),
  temporaryOnly: QueryBoolean.optional(),
});

export const BlockRequest = z.object({ blocked: z.boolean(), reason: z.string().max(500).optional() });

export const UpdateUserRequest = z.object({
  firstName: z.string().max(100).nullable().optional(),
  lastName: z.string().max(100).nullable().optional(),
  email: Email.nullable().optional(),
  note: z.string().max(2000).nullable().optional(),
  tags: z.array(z.string().min(1).max(64)).max(50).optional(),
  expiresAt: InstantInput.nullable().optional(),
  twoFactorEnabled: z
    .literal(false)
    .optional()
    .meta({ description: "false turns the owner's two-factor sign-in off, for one who lost the authenticator and the recovery codes (extension); only the owner turns it on" }),
});

/** Who made an account: staff (users create, a class list, setup) or its owner (self-registration). */
export const AccountOrigin = z.enum(['staff', 'self']);
export type AccountOrigin = z.infer<typeof AccountOrigin>;

export const Account = z.object({
  userId: z.string(),
  username: z.string(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  email: z.string().optional(),
  emailConfirmed: z.boolean(),
  isLocal: z.boolean(),
  origin: AccountOrigin,
  mayChangeUsername: z.boolean().meta({ description: 'Whether PUT /account takes a new login from this caller (see the instance switches allowRenameStaffAccounts and allowRenameSelfRegistered)' }),
  mayChangeName: z.boolean().meta({ description: 'Whether PUT /account takes new first and last names from this caller' }),
});
export type Account = z.infer<typeof Account>;

export const UpdateAccountRequest = z.object({
  firstName: z.string().max(100).nullable().optional(),
  lastName: z.string().max(100).nullable().optional(),
  username: Username.optional(),
  email: Email.nullable().optional(),
});

export const ChangePasswordRequest = z.object({ currentPassword: z.string().min(1).max(256), newPassword: Password });

export const DeleteAccountRequest = z.object({ password: z.string().min(1).max(256) });

export const AccountLink = z.object({
  providerSlug: z.string(),
  displayName: z.string(),
  accountUrl: z.string().optional(),
  deletionUrl: z.string().optional(),
  linkedAt: Timestamp,
});
export type AccountLink = z.infer<typeof AccountLink>;

export const MergeRequest = z.object({ targetUserId: z.string().min(1).max(64) });

export const MergePreview = z.object({
  sourceUserId: z.string(),
  sourceLogin: z.string(),
  sourceName: z.string(),
  sourceIsTemporary: z.boolean(),
  targetUserId: z.string(),
  targetLogin: z.string(),
  targetName: z.string(),
  submissions: z.number().int().meta({ description: "The source's submissions, which move to the target" }),
  questions: z.number().int().meta({ description: 'The questions the source asked, which move to the target' }),
  activities: z.number().int().meta({ description: 'The activities the source is a member of' }),
  activityNames: z.array(z.string()),
  blockers: z.array(z.string()).meta({ description: 'Why the merge cannot be made, one sentence each; empty when it can' }),
});
export type MergePreview = z.infer<typeof MergePreview>;

export const MergeRecord = z.object({
  id: z.string(),
  sourceUserId: z.string(),
  targetUserId: z.string(),
  mergedAt: Timestamp,
  mergedByUserId: z.string().optional(),
  anonymiseAfter: Timestamp.meta({ description: 'When the blocked source account is anonymised; the merge can be undone until then' }),
  sourceAnonymisedAt: Timestamp.optional(),
  undoneAt: Timestamp.optional(),
  canUndo: z.boolean(),
  sourceLogin: z.string().meta({ description: 'The source login now (extension)' }),
  targetLogin: z.string().meta({ description: 'The target login now (extension)' }),
});
export type MergeRecord = z.infer<typeof MergeRecord>;
