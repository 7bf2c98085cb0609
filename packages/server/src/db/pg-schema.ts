import { sql } from 'drizzle-orm';
import { bigint, doublePrecision, index, pgTable, smallint, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * The tables of `schema.ts` for PostgreSQL, from which drizzle-kit generates `drizzle-pg/`. Services
 * never import this module: they build their queries with `schema.ts`' tables on both engines, so
 * each column here stores what that column's SQLite mapper writes and reads back
 * (docs/storage.md, "PostgreSQL"):
 * - integer → bigint (a parser turns it into a JS number), real → double precision;
 * - booleans → smallint 0/1, as SQLite stores them;
 * - JSON and timestamps → text (JSON as written, timestamps as RFC 3339 UTC text).
 * What each table and column means is documented in `schema.ts`; `test/schema-dialects.test.ts`
 * proves the two modules describe the same tables, columns, keys and indexes.
 */

const ts = (name: string) => text(name);
const bool = (name: string) => smallint(name);

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    usernameKey: text('username_key').notNull(),
    email: text('email'),
    emailKey: text('email_key'),
    emailConfirmed: bool('email_confirmed').notNull().default(0),
    passwordHash: text('password_hash'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    note: text('note'),
    tags: text('tags').$type<string[]>().notNull().default(sql`'[]'`),
    isLocal: bool('is_local').notNull().default(1),
    isTemporary: bool('is_temporary').notNull().default(0),
    origin: text('origin').$type<'staff' | 'self'>().notNull().default('staff'),
    // when a self-registered account accepted the terms of use in force then (instance documents)
    termsAcceptedAt: ts('terms_accepted_at'),
    expiresAt: ts('expires_at'),
    approvedAt: ts('approved_at'),
    blockedAt: ts('blocked_at'),
    blockedReason: text('blocked_reason'),
    failedLogins: bigint('failed_logins', { mode: 'number' }).notNull().default(0),
    lockedUntil: ts('locked_until'),
    createdAt: ts('created_at').notNull(),
    lastSeenAt: ts('last_seen_at'),
    twoFactorKey: text('two_factor_key'),
    twoFactorEnabled: bool('two_factor_enabled').notNull().default(0),
    twoFactorStep: bigint('two_factor_step', { mode: 'number' }).notNull().default(0),
    recoveryCodes: text('recovery_codes').$type<string[]>().notNull().default(sql`'[]'`),
  },
  (t) => [uniqueIndex('users_username_key').on(t.usernameKey), uniqueIndex('users_email_key').on(t.emailKey)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    startedAt: ts('started_at').notNull(),
    lastRequestAt: ts('last_request_at'),
    lastRequestPath: text('last_request_path'),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    expiresAt: ts('expires_at').notNull(),
    endedAt: ts('ended_at'),
    endReason: text('end_reason'),
  },
  (t) => [index('sessions_user').on(t.userId, t.startedAt)],
);

export const sessionSecrets = pgTable(
  'session_secrets',
  {
    hash: text('hash').primaryKey(),
    sessionId: text('session_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    expiresAt: ts('expires_at').notNull(),
    rotatedAt: ts('rotated_at'),
  },
  (t) => [index('session_secrets_session').on(t.sessionId)],
);

export const accountCodes = pgTable(
  'account_codes',
  {
    hash: text('hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<'confirm' | 'reset'>().notNull(),
    newEmail: text('new_email'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('account_codes_user').on(t.userId, t.purpose)],
);

export const rememberedMachines = pgTable(
  'remembered_machines',
  {
    hash: text('hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('remembered_machines_user').on(t.userId)],
);

export const userMerges = pgTable(
  'user_merges',
  {
    id: text('id').primaryKey(),
    sourceUserId: text('source_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    targetUserId: text('target_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    mergedAt: ts('merged_at').notNull(),
    mergedByUserId: text('merged_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    anonymiseAfter: ts('anonymise_after').notNull(),
    sourceAnonymisedAt: ts('source_anonymised_at'),
    undoneAt: ts('undone_at'),
    moved: text('moved').$type<Record<string, string[]>>().notNull(),
    sourceBefore: text('source_before').$type<{ blockedAt: string | null; blockedReason: string | null }>().notNull(),
  },
  (t) => [index('user_merges_source').on(t.sourceUserId), index('user_merges_target').on(t.targetUserId)],
);

export const identityProviders = pgTable(
  'identity_providers',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull(),
    displayName: text('display_name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    clientSecret: text('client_secret'),
    scopes: text('scopes').notNull(),
    enabled: bool('enabled').notNull().default(1),
    accountUrl: text('account_url'),
    deletionUrl: text('deletion_url'),
    claimPath: text('claim_path'),
    unmappedBehavior: text('unmapped_behavior').$type<'deny' | 'defaultTemplate'>().notNull(),
    defaultTemplateName: text('default_template_name'),
    deletionChannelEnabled: bool('deletion_channel_enabled').notNull().default(0),
    deletionSecret: text('deletion_secret'),
    mappingRules: text('mapping_rules').$type<{ claimValue: string; templateName: string }[]>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('identity_providers_slug').on(t.slug)],
);

export const oidcLogins = pgTable('oidc_logins', {
  stateHash: text('state_hash').primaryKey(),
  providerId: text('provider_id')
    .notNull()
    .references(() => identityProviders.id, { onDelete: 'cascade' }),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  returnUrl: text('return_url').notNull(),
  remember: bool('remember').notNull(),
  expiresAt: ts('expires_at').notNull(),
});

export const userIdentities = pgTable(
  'user_identities',
  {
    providerId: text('provider_id')
      .notNull()
      .references(() => identityProviders.id, { onDelete: 'restrict' }),
    subject: text('subject').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkedAt: ts('linked_at').notNull(),
  },
  (t) => [uniqueIndex('user_identities_pk').on(t.providerId, t.subject), index('user_identities_user').on(t.userId)],
);

export const activities = pgTable(
  'activities',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull(),
    slugKey: text('slug_key'),
    type: text('type').notNull().default('contest@1'),
    rankingType: text('ranking_type').notNull().default('icpc'),
    timeZone: text('time_zone').notNull().default('UTC'),
    startDate: ts('start_date'),
    endDate: ts('end_date'),
    modules: text('modules').$type<{ questions: boolean; printouts: boolean; sampleRuns?: boolean }>().notNull().default(sql`'{"questions":true,"printouts":false}'`),
    scoreVisibility: text('score_visibility').notNull().default('everyone'),
    attachmentVisibility: text('attachment_visibility').$type<{ name: string; visibility: string }[]>().notNull().default(sql`'[]'`),
    props: text('props').$type<Record<string, unknown>>(),
    joinPolicy: text('join_policy').notNull().default('closed'),
    unlisted: bool('unlisted').notNull().default(1),
    joinPassword: text('join_password'),
    hideEndedSeriesProblems: bool('hide_ended_series_problems').notNull().default(0),
    showGroupMembers: bool('show_group_members').notNull().default(0),
    maxUploadBytes: bigint('max_upload_bytes', { mode: 'number' }).notNull().default(262144),
    maxAttachments: bigint('max_attachments', { mode: 'number' }).notNull().default(1),
    maxSubmissionsPerProblem: bigint('max_submissions_per_problem', { mode: 'number' }),
    runnerTags: text('runner_tags').$type<string[]>().notNull().default(sql`'[]'`),
    archivedAt: ts('archived_at'),
    publishedAt: ts('published_at'),
    publicScoreboard: bool('public_scoreboard').notNull().default(0),
    displayToken: text('display_token'),
    finalizedAt: ts('finalized_at'),
    awardRules: text('award_rules').$type<{ gold: number; silver: number; bronze: number; extraBronze: number }>(),
    ceremonyStep: bigint('ceremony_step', { mode: 'number' }).notNull().default(0),
  },
  (t) => [uniqueIndex('activities_slug').on(t.slug), uniqueIndex('activities_slug_key').on(t.slugKey)],
);

export const activityAwards = pgTable(
  'activity_awards',
  {
    id: text('id').primaryKey(),
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    key: text('award_key').notNull(),
    citation: text('citation').notNull(),
    userIds: text('user_ids').$type<string[]>().notNull(),
    position: bigint('position', { mode: 'number' }).notNull(),
    adjusted: bool('adjusted').notNull().default(0),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('activity_awards_key').on(t.activityId, t.key)],
);

export const roles = pgTable(
  'roles',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    description: text('description'),
    permissions: text('permissions').$type<string[]>().notNull(),
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

export const grants = pgTable(
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
    overrideSystem: bool('override_system').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    sourceProviderId: text('source_provider_id').references((): AnyPgColumn => identityProviders.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('grants_membership').on(t.userId, t.activityId).where(sql`activity_id is not null`),
    uniqueIndex('grants_system_role').on(t.userId, t.roleId).where(sql`activity_id is null`),
    index('grants_activity').on(t.activityId),
    index('grants_role').on(t.roleId),
  ],
);

export const files = pgTable(
  'files',
  {
    id: text('id').primaryKey(),
    sha256: text('sha256').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    name: text('name').notNull(),
    mimeType: text('mime_type').notNull(),
    uploadedBy: text('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    uploadedByRunner: text('uploaded_by_runner'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('files_sha256').on(t.sha256), index('files_uploader').on(t.uploadedBy)],
);

export const instanceSettings = pgTable('instance_settings', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  settings: text('settings').$type<Record<string, unknown>>().notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/**
 * Revisions of the instance's documents (terms, privacy, ...), one file per language each: the one
 * in force for a kind and language is the newest whose valid_from has passed and that was not
 * withdrawn. Revisions are kept (who accepted which terms must stay answerable).
 */
export const instanceDocuments = pgTable(
  'instance_documents',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    language: text('language').notNull(),
    title: text('title').notNull(),
    validFrom: ts('valid_from').notNull(),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
    createdAt: ts('created_at').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    withdrawnAt: ts('withdrawn_at'),
  },
  (t) => [index('instance_documents_kind').on(t.kind, t.language, t.validFrom), index('instance_documents_file').on(t.fileId)],
);

/** Named secrets of the instance (an archive's API key...): values leave only through GET .../value. */
export const instanceAccessKeys = pgTable('instance_access_keys', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  expiresAt: ts('expires_at'),
  updatedAt: ts('updated_at').notNull(),
  updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
});


export const problems = pgTable(
  'problems',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull(),
    slugKey: text('slug_key').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    external: bool('external').notNull().default(0),
    ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    visibility: text('visibility').notNull().default('private'),
    archivedAt: ts('archived_at'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('problems_slug').on(t.slugKey), index('problems_owner').on(t.ownerUserId)],
);

export const problemShares = pgTable(
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

export const problemVersions = pgTable(
  'problem_versions',
  {
    id: text('id').primaryKey(),
    problemId: text('problem_id')
      .notNull()
      .references(() => problems.id, { onDelete: 'cascade' }),
    version: bigint('version', { mode: 'number' }).notNull(),
    note: text('note'),
    props: text('props').$type<Record<string, unknown>>(),
    packageInfo: text('package_info').$type<Record<string, unknown>>(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('problem_versions_number').on(t.problemId, t.version)],
);

export const problemVersionFiles = pgTable(
  'problem_version_files',
  {
    versionId: text('version_id')
      .notNull()
      .references(() => problemVersions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope').notNull(),
    role: text('role').notNull(),
    language: text('language'),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
  },
  (t) => [uniqueIndex('problem_version_files_pk').on(t.versionId, t.name), index('problem_version_files_file').on(t.fileId)],
);

export const activityDocuments = pgTable(
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

export const series = pgTable(
  'series',
  {
    id: text('id').primaryKey(),
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    slugKey: text('slug_key').notNull(),
    name: text('name').notNull(),
    order: bigint('order', { mode: 'number' }).notNull(),
    startDate: ts('start_date'),
    endDate: ts('end_date'),
    isOpen: bool('is_open').notNull().default(0),
    openedAt: ts('opened_at'),
    pausedAt: ts('paused_at'),
    hideProblemsWhilePaused: bool('hide_problems_while_paused').notNull().default(0),
    revealProblemCount: bool('reveal_problem_count').notNull().default(1),
    rankingFreezeAt: ts('ranking_freeze_at'),
    rankingRevealAt: ts('ranking_reveal_at'),
    rankingVisibleFrom: ts('ranking_visible_from'),
    rankingVisibleTo: ts('ranking_visible_to'),
    importance: bigint('importance', { mode: 'number' }).notNull().default(1),
    importanceScope: text('importance_scope').notNull().default('activity'),
    addressRules: text('address_rules').$type<{ network: string; note?: string }[]>().notNull().default(sql`'[]'`),
    restrictionsEnabled: bool('restrictions_enabled').notNull().default(0),
    runnerTags: text('runner_tags').$type<string[]>().notNull().default(sql`'[]'`),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('series_slug').on(t.activityId, t.slugKey), index('series_activity').on(t.activityId, t.order)],
);

export const seriesProblems = pgTable(
  'series_problems',
  {
    id: text('id').primaryKey(),
    seriesId: text('series_id')
      .notNull()
      .references(() => series.id, { onDelete: 'cascade' }),
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    problemId: text('problem_id')
      .notNull()
      .references(() => problems.id, { onDelete: 'restrict' }),
    slug: text('slug').notNull(),
    slugKey: text('slug_key').notNull(),
    name: text('name'),
    order: bigint('order', { mode: 'number' }).notNull(),
    pinnedVersionId: text('pinned_version_id').references(() => problemVersions.id, { onDelete: 'restrict' }),
    config: text('config').$type<Record<string, unknown>>(),
    spec: text('spec').$type<Record<string, unknown>>(),
    props: text('props').$type<Record<string, unknown>>(),
    maxPoints: bigint('max_points', { mode: 'number' }),
    maxUploadBytes: bigint('max_upload_bytes', { mode: 'number' }),
    maxAttachments: bigint('max_attachments', { mode: 'number' }),
    maxSubmissions: bigint('max_submissions', { mode: 'number' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('series_problems_slug').on(t.activityId, t.slugKey),
    index('series_problems_series').on(t.seriesId, t.order),
    index('series_problems_problem').on(t.problemId),
  ],
);

export const submissions = pgTable(
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
    props: text('props').$type<Record<string, unknown>>(),
    state: text('state').notNull().default('queued'),
    verdict: text('verdict'),
    score: doublePrecision('score'),
    maxScore: doublePrecision('max_score'),
    excluded: bool('excluded').notNull().default(0),
    excludedAt: ts('excluded_at'),
    excludedBy: text('excluded_by').references(() => users.id, { onDelete: 'set null' }),
    exclusionReason: text('exclusion_reason'),
    attempts: bigint('attempts', { mode: 'number' }).notNull().default(1),
    ipAddress: text('ip_address'),
    sessionId: text('session_id'),
    deviceId: text('device_id'),
  },
  (t) => [
    index('submissions_assignment_user').on(t.seriesProblemId, t.userId),
    index('submissions_activity').on(t.activityId, t.submittedAt),
    index('submissions_user').on(t.userId, t.submittedAt),
    index('submissions_standings').on(t.userId, t.activityId, t.seriesProblemId, t.excluded, t.score, t.maxScore),
  ],
);

export const submissionFiles = pgTable(
  'submission_files',
  {
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    fileName: text('file_name').notNull(),
    language: text('language'),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
  },
  (t) => [uniqueIndex('submission_files_pk').on(t.submissionId, t.name), index('submission_files_file').on(t.fileId)],
);


export const runners = pgTable(
  'runners',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    publicKey: text('public_key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    state: text('state').notNull(),
    problemTypes: text('problem_types').$type<string[]>().notNull(),
    tags: text('tags').$type<string[]>().notNull().default(sql`'[]'`),
    address: text('address'),
    version: text('version'),
    registeredAt: ts('registered_at').notNull(),
    approvedAt: ts('approved_at'),
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
    lastSeenAt: ts('last_seen_at'),
    completedJobs: bigint('completed_jobs', { mode: 'number' }).notNull().default(0),
    languages: text('languages').$type<string[]>(),
  },
  (t) => [uniqueIndex('runners_fingerprint').on(t.fingerprint), index('runners_registered').on(t.registeredAt)],
);

export const runnerTokens = pgTable(
  'runner_tokens',
  {
    hash: text('hash').primaryKey(),
    runnerId: text('runner_id')
      .notNull()
      .references(() => runners.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('runner_tokens_runner').on(t.runnerId)],
);

export const runnerEnrolmentCodes = pgTable(
  'runner_enrolment_codes',
  {
    id: text('id').primaryKey(),
    codeHash: text('code_hash').notNull(),
    name: text('name'),
    tags: text('tags').$type<string[]>().notNull().default(sql`'[]'`),
    uses: bigint('uses', { mode: 'number' }).notNull(),
    used: bigint('used', { mode: 'number' }).notNull().default(0),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    lastUsedAt: ts('last_used_at'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('runner_enrolment_codes_hash').on(t.codeHash), index('runner_enrolment_codes_expires').on(t.expiresAt)],
);

export const runnerFiles = pgTable(
  'runner_files',
  {
    runnerId: text('runner_id')
      .notNull()
      .references(() => runners.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
    attachedAt: ts('attached_at').notNull(),
  },
  (t) => [uniqueIndex('runner_files_pk').on(t.runnerId, t.name), index('runner_files_file').on(t.fileId)],
);

const leasedJobColumns = () => ({
  createdAt: ts('created_at').notNull(),
  claimedAt: ts('claimed_at'),
  finishedAt: ts('finished_at'),
  runnerId: text('runner_id').references(() => runners.id, { onDelete: 'set null' }),
  runnerName: text('runner_name'),
  leaseHash: text('lease_hash'),
  leaseExpiresAt: ts('lease_expires_at'),
});

export const attempts = pgTable(
  'attempts',
  {
    id: text('id').primaryKey(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    attempt: bigint('attempt', { mode: 'number' }).notNull(),
    state: text('state').notNull(),
    priority: bigint('priority', { mode: 'number' }).notNull().default(0),
    problemVersionId: text('problem_version_id')
      .notNull()
      .references(() => problemVersions.id, { onDelete: 'restrict' }),
    problemType: text('problem_type').notNull(),
    ...leasedJobColumns(),
    deliveries: bigint('deliveries', { mode: 'number' }).notNull().default(0),
    progressDone: bigint('progress_done', { mode: 'number' }),
    progressTotal: bigint('progress_total', { mode: 'number' }),
    resultId: text('result_id'),
    failedLeaseHash: text('failed_lease_hash'),
    failedReportId: text('failed_report_id'),
    verdict: text('verdict'),
    score: doublePrecision('score'),
    maxScore: doublePrecision('max_score'),
    failureReason: text('failure_reason'),
    runnerVersion: text('runner_version'),
    extra: text('extra').$type<Record<string, unknown>>(),
    props: text('props').$type<Record<string, unknown>>(),
  },
  (t) => [
    uniqueIndex('attempts_number').on(t.submissionId, t.attempt),
    uniqueIndex('attempts_result').on(t.resultId),
    index('attempts_queue').on(t.state, t.priority, t.createdAt).where(sql`state = 'queued'`),
    index('attempts_runner').on(t.runnerId, t.state),
    index('attempts_lease').on(t.state, t.leaseExpiresAt).where(sql`state = 'running'`),
  ],
);

export const attemptFiles = pgTable(
  'attempt_files',
  {
    attemptId: text('attempt_id')
      .notNull()
      .references(() => attempts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
  },
  (t) => [uniqueIndex('attempt_files_pk').on(t.attemptId, t.name), index('attempt_files_file').on(t.fileId)],
);

export const trials = pgTable(
  'trials',
  {
    id: text('id').primaryKey(),
    activityId: text('activity_id').references(() => activities.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    state: text('state').notNull(),
    problemType: text('problem_type').notNull(),
    packageFileId: text('package_file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
    ...leasedJobColumns(),
    deliveries: bigint('deliveries', { mode: 'number' }).notNull().default(0),
    measurement: text('measurement'),
    failureReason: text('failure_reason'),
    calibratesVersionId: text('calibrates_version_id').references(() => problemVersions.id, { onDelete: 'cascade' }),
  },
  (t) => [index('trials_queue').on(t.state, t.createdAt), index('trials_creator').on(t.createdBy, t.state), index('trials_lease').on(t.state, t.leaseExpiresAt)],
);

export const sampleRuns = pgTable(
  'sample_runs',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    seriesProblemId: text('series_problem_id')
      .notNull()
      .references(() => seriesProblems.id, { onDelete: 'cascade' }),
    problemVersionId: text('problem_version_id')
      .notNull()
      .references(() => problemVersions.id, { onDelete: 'cascade' }),
    problemType: text('problem_type').notNull(),
    sources: text('sources').notNull(),
    language: text('language'),
    state: text('state').notNull(),
    ...leasedJobColumns(),
    verdict: text('verdict'),
    compileOutput: text('compile_output'),
    results: text('results'),
    failureReason: text('failure_reason'),
  },
  (t) => [index('sample_runs_queue').on(t.state, t.createdAt), index('sample_runs_user').on(t.userId, t.createdAt), index('sample_runs_lease').on(t.state, t.leaseExpiresAt)],
);


export const questions = pgTable(
  'questions',
  {
    id: text('id').primaryKey(),
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    topic: text('topic').notNull(),
    body: text('body').notNull(),
    authorUserId: text('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    seriesId: text('series_id').references(() => series.id, { onDelete: 'set null' }),
    seriesProblemId: text('series_problem_id').references(() => seriesProblems.id, { onDelete: 'set null' }),
    answerBody: text('answer_body'),
    answerUserId: text('answer_user_id').references(() => users.id, { onDelete: 'set null' }),
    answeredAt: ts('answered_at'),
    isPublished: bool('is_published').notNull().default(0),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('questions_activity').on(t.activityId, t.createdAt), index('questions_author').on(t.authorUserId)],
);

export const questionReads = pgTable(
  'question_reads',
  {
    questionId: text('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: ts('read_at').notNull(),
  },
  (t) => [uniqueIndex('question_reads_pk').on(t.questionId, t.userId), index('question_reads_user').on(t.userId)],
);

export const cannedAnswers = pgTable('canned_answers', {
  id: bigint('id', { mode: 'number' }).primaryKey(),
  answers: text('answers').$type<string[]>().notNull(),
  updatedAt: ts('updated_at').notNull(),
});

export const printouts = pgTable(
  'printouts',
  {
    id: text('id').primaryKey(),
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    fileName: text('file_name').notNull(),
    source: text('source'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    submissionId: text('submission_id').references(() => submissions.id, { onDelete: 'set null' }),
    seriesProblemId: text('series_problem_id').references(() => seriesProblems.id, { onDelete: 'set null' }),
    state: text('state').notNull().default('queued'),
    requestedAt: ts('requested_at').notNull(),
    claimedByUserId: text('claimed_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    claimedAt: ts('claimed_at'),
    resolvedByUserId: text('resolved_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: ts('resolved_at'),
    note: text('note'),
    sourceDisposedAt: ts('source_disposed_at'),
    printStartedAt: ts('print_started_at'),
    printFinishedAt: ts('print_finished_at'),
    printExitCode: bigint('print_exit_code', { mode: 'number' }),
    printOutput: text('print_output'),
  },
  (t) => [
    index('printouts_activity').on(t.activityId, t.state, t.requestedAt),
    index('printouts_user').on(t.userId, t.activityId),
    index('printouts_disposal').on(t.resolvedAt).where(sql`source_disposed_at is null`),
  ],
);

export const events = pgTable(
  'events',
  {
    // an identity column draws from a sequence: ids grow, though rolled-back writes leave gaps
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    createdAt: ts('created_at').notNull(),
    message: text('message').notNull(),
  },
  (t) => [index('events_created').on(t.createdAt)],
);

export const clicsEvents = pgTable(
  'clics_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    audience: text('audience').notNull(),
    type: text('type').notNull(),
    objectId: text('object_id'),
    data: text('data'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('clics_events_activity').on(t.activityId, t.id)],
);

export const servers = pgTable('servers', {
  id: text('id').primaryKey(),
  host: text('host').notNull(),
  pid: bigint('pid', { mode: 'number' }).notNull(),
  version: text('version').notNull(),
  startedAt: ts('started_at').notNull(),
  heartbeatAt: ts('heartbeat_at').notNull(),
  leader: bool('leader').notNull().default(0),
  eventCursor: bigint('event_cursor', { mode: 'number' }),
});

export const ltiPlatforms = pgTable(
  'lti_platforms',
  {
    id: text('id').primaryKey(),
    displayName: text('display_name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    deploymentId: text('deployment_id').notNull(),
    keySetUrl: text('key_set_url').notNull(),
    authTokenUrl: text('auth_token_url').notNull(),
    authLoginUrl: text('auth_login_url').notNull(),
    isIdentityAuthority: bool('is_identity_authority').notNull().default(0),
    identityNamespace: text('identity_namespace'),
    usernameClaim: text('username_claim').notNull(),
    enabled: bool('enabled').notNull().default(1),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('lti_platforms_registration').on(t.issuer, t.clientId, t.deploymentId)],
);

export const ltiKeys = pgTable('lti_keys', {
  kid: text('kid').primaryKey(),
  privateKey: text('private_key').notNull(),
  publicJwk: text('public_jwk').$type<Record<string, unknown>>().notNull(),
  createdAt: ts('created_at').notNull(),
  retiredAt: ts('retired_at'),
});

export const ltiLogins = pgTable(
  'lti_logins',
  {
    stateHash: text('state_hash').primaryKey(),
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('lti_logins_expiry').on(t.expiresAt)],
);

export const ltiTickets = pgTable(
  'lti_tickets',
  {
    hash: text('hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    target: text('target').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('lti_tickets_expiry').on(t.expiresAt)],
);

export const ltiIdentities = pgTable(
  'lti_identities',
  {
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'restrict' }),
    subject: text('subject').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkedAt: ts('linked_at').notNull(),
  },
  (t) => [uniqueIndex('lti_identities_pk').on(t.platformId, t.subject), index('lti_identities_user').on(t.userId)],
);

export const ltiPlacements = pgTable(
  'lti_placements',
  {
    id: text('id').primaryKey(),
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'restrict' }),
    contextId: text('context_id').notNull(),
    resourceLinkId: text('resource_link_id').notNull(),
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    assignmentId: text('assignment_id').references(() => seriesProblems.id, { onDelete: 'set null' }),
    lineItemUrl: text('line_item_url'),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [uniqueIndex('lti_placements_link').on(t.platformId, t.contextId, t.resourceLinkId), index('lti_placements_activity').on(t.activityId)],
);

export const ltiGrades = pgTable(
  'lti_grades',
  {
    placementId: text('placement_id')
      .notNull()
      .references(() => ltiPlacements.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    changes: bigint('changes', { mode: 'number' }).notNull().default(0),
    sentChanges: bigint('sent_changes', { mode: 'number' }).notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    failures: bigint('failures', { mode: 'number' }).notNull().default(0),
    sentScore: doublePrecision('sent_score'),
    sentMaximum: doublePrecision('sent_maximum'),
    sentAt: ts('sent_at'),
    lastError: text('last_error'),
  },
  (t) => [uniqueIndex('lti_grades_pk').on(t.placementId, t.userId), index('lti_grades_user').on(t.userId), index('lti_grades_due').on(t.nextAttemptAt)],
);

export const accountDeletionRequests = pgTable(
  'account_deletion_requests',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    providerId: text('provider_id').references(() => identityProviders.id, { onDelete: 'set null' }),
    requestId: text('request_id'),
    channel: text('channel').$type<'holder' | 'provider'>().notNull(),
    state: text('state').$type<'pending' | 'completed' | 'halted' | 'attention'>().notNull(),
    requestedAt: ts('requested_at').notNull(),
    dueAt: ts('due_at').notNull(),
    doneAt: ts('done_at'),
    haltedBy: text('halted_by').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
  },
  (t) => [
    uniqueIndex('account_deletion_requests_request').on(t.providerId, t.requestId),
    index('account_deletion_requests_due').on(t.state, t.dueAt),
    index('account_deletion_requests_user').on(t.userId),
  ],
);
