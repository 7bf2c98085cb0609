import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

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

/** A contest or a course. */
export const activities = sqliteTable(
  'activities',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull(),
    /** Lowercased slug: slugs are unique regardless of case. */
    slugKey: text('slug_key'),
    /** `name@version`: contest@1, course@1 */
    type: text('type').notNull().default('contest@1'),
    /** icpc | points */
    rankingType: text('ranking_type').notNull().default('icpc'),
    timeZone: text('time_zone').notNull().default('UTC'),
    startDate: ts('start_date'),
    endDate: ts('end_date'),
    modules: text('modules', { mode: 'json' }).$type<{ questions: boolean; printouts: boolean }>().notNull().default(sql`'{"questions":true,"printouts":false}'`),
    /** everyone | participantOnly | managersOnly */
    scoreVisibility: text('score_visibility').notNull().default('everyone'),
    attachmentVisibility: text('attachment_visibility', { mode: 'json' }).$type<{ name: string; visibility: string }[]>().notNull().default(sql`'[]'`),
    props: text('props', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** closed | password | open */
    joinPolicy: text('join_policy').notNull().default('closed'),
    unlisted: bool('unlisted').notNull().default(true),
    joinPassword: text('join_password'),
    hideEndedSeriesProblems: bool('hide_ended_series_problems').notNull().default(false),
    showGroupMembers: bool('show_group_members').notNull().default(false),
    maxUploadBytes: integer('max_upload_bytes').notNull().default(262144),
    maxAttachments: integer('max_attachments').notNull().default(1),
    maxSubmissionsPerProblem: integer('max_submissions_per_problem'),
    runnerTags: text('runner_tags', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    archivedAt: ts('archived_at'),
    publishedAt: ts('published_at'),
  },
  (t) => [uniqueIndex('activities_slug').on(t.slug), uniqueIndex('activities_slug_key').on(t.slugKey)],
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

// ---- content: problems, activities, series, assignments ----

export const problems = sqliteTable(
  'problems',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull(),
    slugKey: text('slug_key').notNull(),
    name: text('name').notNull(),
    /** `name@version`; runners match it exactly. */
    type: text('type').notNull(),
    external: bool('external').notNull().default(false),
    ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** private | shared | instance */
    visibility: text('visibility').notNull().default('private'),
    archivedAt: ts('archived_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('problems_slug').on(t.slugKey), index('problems_owner').on(t.ownerUserId)],
);

export const problemShares = sqliteTable(
  'problem_shares',
  {
    problemId: text('problem_id')
      .notNull()
      .references(() => problems.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [uniqueIndex('problem_shares_pk').on(t.problemId, t.userId), index('problem_shares_user').on(t.userId)],
);

/** Append-only, numbered per problem. */
export const problemVersions = sqliteTable(
  'problem_versions',
  {
    id: text('id').primaryKey(),
    problemId: text('problem_id')
      .notNull()
      .references(() => problems.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    note: text('note'),
    props: text('props', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** What was read from the package on upload (name, limits, test counts). */
    packageInfo: text('package_info', { mode: 'json' }).$type<Record<string, unknown>>(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('problem_versions_number').on(t.problemId, t.version)],
);

/** The files of one version; unchanged files carry forward as new rows naming the same bytes. */
export const problemVersionFiles = sqliteTable(
  'problem_version_files',
  {
    versionId: text('version_id')
      .notNull()
      .references(() => problemVersions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** participant | manager | runner */
    scope: text('scope').notNull(),
    /** statement | file | package | samples */
    role: text('role').notNull(),
    language: text('language'),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
  },
  (t) => [uniqueIndex('problem_version_files_pk').on(t.versionId, t.name), index('problem_version_files_file').on(t.fileId)],
);

export const activityDocuments = sqliteTable(
  'activity_documents',
  {
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    language: text('language').notNull(),
    title: text('title').notNull(),
    validFrom: ts('valid_from').notNull(),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
  },
  (t) => [uniqueIndex('activity_documents_pk').on(t.activityId, t.kind, t.language), index('activity_documents_file').on(t.fileId)],
);

export const series = sqliteTable(
  'series',
  {
    id: text('id').primaryKey(),
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    slugKey: text('slug_key').notNull(),
    name: text('name').notNull(),
    order: integer('order').notNull(),
    startDate: ts('start_date'),
    endDate: ts('end_date'),
    isOpen: bool('is_open').notNull().default(false),
    /** When the series first opened: problems of a series that never opened stay hidden. */
    openedAt: ts('opened_at'),
    pausedAt: ts('paused_at'),
    hideProblemsWhilePaused: bool('hide_problems_while_paused').notNull().default(false),
    revealProblemCount: bool('reveal_problem_count').notNull().default(true),
    rankingFreezeAt: ts('ranking_freeze_at'),
    rankingRevealAt: ts('ranking_reveal_at'),
    rankingVisibleFrom: ts('ranking_visible_from'),
    rankingVisibleTo: ts('ranking_visible_to'),
    importance: integer('importance').notNull().default(1),
    /** activity | none */
    importanceScope: text('importance_scope').notNull().default('activity'),
    addressRules: text('address_rules', { mode: 'json' }).$type<{ network: string; note?: string }[]>().notNull().default(sql`'[]'`),
    restrictionsEnabled: bool('restrictions_enabled').notNull().default(false),
    runnerTags: text('runner_tags', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('series_slug').on(t.activityId, t.slugKey), index('series_activity').on(t.activityId, t.order)],
);

/** An assignment: a problem attached to a series, following its newest version or pinned to one. */
export const seriesProblems = sqliteTable(
  'series_problems',
  {
    id: text('id').primaryKey(),
    seriesId: text('series_id')
      .notNull()
      .references(() => series.id, { onDelete: 'cascade' }),
    /** Kept here so that slugs are unique in the whole activity by an index. */
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    problemId: text('problem_id')
      .notNull()
      .references(() => problems.id, { onDelete: 'restrict' }),
    slug: text('slug').notNull(),
    slugKey: text('slug_key').notNull(),
    name: text('name'),
    order: integer('order').notNull(),
    pinnedVersionId: text('pinned_version_id').references(() => problemVersions.id, { onDelete: 'restrict' }),
    config: text('config', { mode: 'json' }).$type<Record<string, unknown>>(),
    spec: text('spec', { mode: 'json' }).$type<Record<string, unknown>>(),
    props: text('props', { mode: 'json' }).$type<Record<string, unknown>>(),
    maxPoints: integer('max_points'),
    maxUploadBytes: integer('max_upload_bytes'),
    maxAttachments: integer('max_attachments'),
    maxSubmissions: integer('max_submissions'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('series_problems_slug').on(t.activityId, t.slugKey),
    index('series_problems_series').on(t.seriesId, t.order),
    index('series_problems_problem').on(t.problemId),
  ],
);

/**
 * A participant's submission. The judging flow adds its attempts and results; the content views
 * read the outcome columns for a participant's status per problem.
 */
export const submissions = sqliteTable(
  'submissions',
  {
    id: text('id').primaryKey(),
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'restrict' }),
    seriesId: text('series_id')
      .notNull()
      .references(() => series.id, { onDelete: 'restrict' }),
    seriesProblemId: text('series_problem_id')
      .notNull()
      .references(() => seriesProblems.id, { onDelete: 'restrict' }),
    problemVersionId: text('problem_version_id')
      .notNull()
      .references(() => problemVersions.id, { onDelete: 'restrict' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    submittedAt: ts('submitted_at').notNull(),
    props: text('props', { mode: 'json' }).$type<Record<string, unknown>>(),
    /** queued | running | completed | failed | cancelled: the newest attempt's state */
    state: text('state').notNull().default('queued'),
    verdict: text('verdict'),
    score: real('score'),
    maxScore: real('max_score'),
    excluded: bool('excluded').notNull().default(false),
    ipAddress: text('ip_address'),
    sessionId: text('session_id'),
    deviceId: text('device_id'),
  },
  (t) => [
    index('submissions_assignment_user').on(t.seriesProblemId, t.userId),
    index('submissions_activity').on(t.activityId, t.submittedAt),
    index('submissions_user').on(t.userId, t.submittedAt),
    // covers the participant's standings: read in GROUP BY order without touching the table
    index('submissions_standings').on(t.userId, t.activityId, t.seriesProblemId, t.excluded, t.score, t.maxScore),
  ],
);
