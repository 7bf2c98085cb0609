import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** Timestamps are RFC 3339 UTC text with milliseconds: they sort as they read. */
const ts = (name: string) => text(name);
const bool = (name: string) => integer(name, { mode: 'boolean' });

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    /** Lowercased login: logins are unique regardless of case. */
    usernameKey: text('username_key').notNull(),
    email: text('email'),
    emailKey: text('email_key'),
    emailConfirmed: bool('email_confirmed').notNull().default(false),
    passwordHash: text('password_hash'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    note: text('note'),
    tags: text('tags', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    isLocal: bool('is_local').notNull().default(true),
    isTemporary: bool('is_temporary').notNull().default(false),
    expiresAt: ts('expires_at'),
    approvedAt: ts('approved_at'),
    blockedAt: ts('blocked_at'),
    blockedReason: text('blocked_reason'),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: ts('locked_until'),
    createdAt: ts('created_at').notNull(),
    lastSeenAt: ts('last_seen_at'),
  },
  (t) => [uniqueIndex('users_username_key').on(t.usernameKey), uniqueIndex('users_email_key').on(t.emailKey)],
);

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** bearer | cookie (persistent) | sessionCookie (browser session) */
    kind: text('kind').notNull(),
    startedAt: ts('started_at').notNull(),
    lastRequestAt: ts('last_request_at'),
    lastRequestPath: text('last_request_path'),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    /** When the session lapses if unused (refresh token or sliding cookie lifetime). */
    expiresAt: ts('expires_at').notNull(),
    endedAt: ts('ended_at'),
    endReason: text('end_reason'),
  },
  (t) => [index('sessions_user').on(t.userId, t.startedAt)],
);

/** Bearer, refresh and cookie secrets, stored only as their SHA-256. */
export const sessionSecrets = sqliteTable(
  'session_secrets',
  {
    hash: text('hash').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    /** access | refresh | cookie */
    kind: text('kind').notNull(),
    expiresAt: ts('expires_at').notNull(),
    /** Set when a refresh token has been exchanged: presenting it again is theft. */
    rotatedAt: ts('rotated_at'),
  },
  (t) => [index('session_secrets_session').on(t.sessionId)],
);

/** The activity record; the content issue adds its remaining columns. */
export const activities = sqliteTable(
  'activities',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('activities_slug').on(t.slug)],
);

export const roles = sqliteTable(
  'roles',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    description: text('description'),
    permissions: text('permissions', { mode: 'json' }).$type<string[]>().notNull(),
    builtInKey: text('built_in_key'),
    activityId: text('activity_id').references(() => activities.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('roles_built_in').on(t.builtInKey),
    uniqueIndex('roles_name_system').on(t.nameKey).where(sql`activity_id is null`),
    uniqueIndex('roles_name_activity').on(t.activityId, t.nameKey).where(sql`activity_id is not null`),
  ],
);

export const grants = sqliteTable(
  'grants',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: text('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
    activityId: text('activity_id').references(() => activities.id, { onDelete: 'cascade' }),
    overrideSystem: bool('override_system').notNull().default(false),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('grants_membership').on(t.userId, t.activityId).where(sql`activity_id is not null`),
    uniqueIndex('grants_system_role').on(t.userId, t.roleId).where(sql`activity_id is null`),
    index('grants_activity').on(t.activityId),
    index('grants_role').on(t.roleId),
  ],
);

export const files = sqliteTable(
  'files',
  {
    id: text('id').primaryKey(),
    sha256: text('sha256').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    uploadedBy: text('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('files_sha256').on(t.sha256), index('files_uploader').on(t.uploadedBy)],
);

/** One row: the instance-wide settings as a JSON document. */
export const instanceSettings = sqliteTable('instance_settings', {
  id: integer('id').primaryKey(),
  settings: text('settings', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  updatedAt: ts('updated_at').notNull(),
});
