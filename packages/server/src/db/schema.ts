import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';

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
    /**
     * Who made the account: `staff` (an administrator: users create, a class list, setup) or `self`
     * (self-registration). Whether its owner may change login and name depends on it (account module).
     */
    origin: text('origin').$type<'staff' | 'self'>().notNull().default('staff'),
    // when a self-registered account accepted the terms of use in force then (instance documents)
    termsAcceptedAt: ts('terms_accepted_at'),
    expiresAt: ts('expires_at'),
    approvedAt: ts('approved_at'),
    blockedAt: ts('blocked_at'),
    blockedReason: text('blocked_reason'),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: ts('locked_until'),
    createdAt: ts('created_at').notNull(),
    lastSeenAt: ts('last_seen_at'),
    /**
     * The TOTP shared key (base 32), made when the owner first opens two-factor enrolment and kept
     * until they reset it. Never leaves the server once two-factor sign-in is on (identity module).
     */
    twoFactorKey: text('two_factor_key'),
    twoFactorEnabled: bool('two_factor_enabled').notNull().default(false),
    /** The newest TOTP time step taken: a code works once, so one read over a shoulder cannot be replayed. */
    twoFactorStep: integer('two_factor_step').notNull().default(0),
    /** SHA-256 of each unused recovery code. */
    recoveryCodes: text('recovery_codes', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
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

/**
 * Single-use codes mailed to an account's owner: `confirm` (the address, or the new address
 * `newEmail` when it is being changed) and `reset` (the password). Only the code's SHA-256 is
 * stored; a code is spent (`usedAt`) when it is used, and every other of its purpose with it.
 */
export const accountCodes = sqliteTable(
  'account_codes',
  {
    hash: text('hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** confirm | reset */
    purpose: text('purpose').$type<'confirm' | 'reset'>().notNull(),
    newEmail: text('new_email'),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('account_codes_user').on(t.userId, t.purpose)],
);

/**
 * Browsers where their owner signed in with a second factor and asked to stay signed in: the
 * `judge_2fa` cookie's SHA-256. Such a browser is not asked for a code again until the row expires,
 * the owner forgets it, or two-factor sign-in is turned off or its key reset.
 */
export const rememberedMachines = sqliteTable(
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

/**
 * One account merged into another (modules/user-merges): `moved` names, table by table, the rows
 * that went to the target, so that an undo moves back exactly those; `sourceBefore` holds what the
 * merge changed on the source (its block), put back by an undo.
 */
export const userMerges = sqliteTable(
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
    moved: text('moved', { mode: 'json' }).$type<Record<string, string[]>>().notNull(),
    sourceBefore: text('source_before', { mode: 'json' }).$type<{ blockedAt: string | null; blockedReason: string | null }>().notNull(),
  },
  (t) => [index('user_merges_source').on(t.sourceUserId), index('user_merges_target').on(t.targetUserId)],
);

/**
 * An OpenID Connect provider accounts may sign in with (modules/identity-providers). The client
 * and deletion secrets are write-only: no answer carries them.
 */
export const identityProviders = sqliteTable(
  'identity_providers',
  {
    id: text('id').primaryKey(),
    slug: text('slug').notNull(),
    displayName: text('display_name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    clientSecret: text('client_secret'),
    scopes: text('scopes').notNull(),
    enabled: bool('enabled').notNull().default(true),
    accountUrl: text('account_url'),
    deletionUrl: text('deletion_url'),
    /** Dotted path of the claim whose values the mapping rules match (e.g. `groups`). */
    claimPath: text('claim_path'),
    /** deny | defaultTemplate: what a sign-in whose claim matches no rule gets. */
    unmappedBehavior: text('unmapped_behavior').$type<'deny' | 'defaultTemplate'>().notNull(),
    defaultTemplateName: text('default_template_name'),
    deletionChannelEnabled: bool('deletion_channel_enabled').notNull().default(false),
    deletionSecret: text('deletion_secret'),
    mappingRules: text('mapping_rules', { mode: 'json' }).$type<{ claimValue: string; templateName: string }[]>().notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('identity_providers_slug').on(t.slug)],
);

/**
 * A sign-in through a provider between the challenge and the callback: what the callback needs to
 * finish it (PKCE verifier, nonce, where to go), under the SHA-256 of its `state`; single-use, ten
 * minutes. Kept in the database so that any server of a cluster can take the callback.
 */
export const oidcLogins = sqliteTable('oidc_logins', {
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

/** An account's link to a provider: the provider's subject (`sub`) for it. */
export const userIdentities = sqliteTable(
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
    modules: text('modules', { mode: 'json' }).$type<{ questions: boolean; printouts: boolean; sampleRuns?: boolean }>().notNull().default(sql`'{"questions":true,"printouts":false}'`),
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
    /** The public view of the standings to anybody, signed in or not, and its page. */
    publicScoreboard: bool('public_scoreboard').notNull().default(false),
    /** The secret of the display link (a projector nobody signs in on); null: no link. */
    displayToken: text('display_token'),
    /** When the standings were declared final (and the awards computed). */
    finalizedAt: ts('finalized_at'),
    /** Medals given at finalisation; null: the judge's defaults. */
    awardRules: text('award_rules', { mode: 'json' }).$type<AwardRules>(),
    /** The award ceremony's step its presenter is at, which the screens following the presenter show. */
    ceremonyStep: integer('ceremony_step').notNull().default(0),
  },
  (t) => [uniqueIndex('activities_slug').on(t.slug), uniqueIndex('activities_slug_key').on(t.slugKey)],
);

/** How many rows receive each medal; extraBronze are given on top of bronze (as the ICPC does). */
export type AwardRules = { gold: number; silver: number; bronze: number; extraBronze: number };

/** The awards of a finalised activity (winner, medals, first to solve, group winners), citations adjustable by staff. */
export const activityAwards = sqliteTable(
  'activity_awards',
  {
    id: text('id').primaryKey(),
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    /** Stable within the activity and the CLICS award id: winner, gold-medal, first-to-solve-SLUG, group-winner-ID… */
    key: text('award_key').notNull(),
    citation: text('citation').notNull(),
    userIds: text('user_ids', { mode: 'json' }).$type<string[]>().notNull(),
    position: integer('position').notNull(),
    /** The citation was changed by staff (kept when the awards are computed again). */
    adjusted: bool('adjusted').notNull().default(false),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('activity_awards_key').on(t.activityId, t.key)],
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
    /** Set on a system grant an identity provider's mapping rule gave: each sign-in through it rewrites those. */
    sourceProviderId: text('source_provider_id').references((): AnySQLiteColumn => identityProviders.id, { onDelete: 'cascade' }),
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
    /** Set when a runner uploaded the file (no user did): only that runner may attach it. */
    uploadedByRunner: text('uploaded_by_runner'),
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

/**
 * Revisions of the instance's documents (terms, privacy, ...), one file per language each: the one
 * in force for a kind and language is the newest whose valid_from has passed and that was not
 * withdrawn. Revisions are kept (who accepted which terms must stay answerable).
 */
export const instanceDocuments = sqliteTable(
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
export const instanceAccessKeys = sqliteTable('instance_access_keys', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  expiresAt: ts('expires_at'),
  updatedAt: ts('updated_at').notNull(),
  updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
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
    /** statement (sent) | packageStatement | statementImage | sample (from the package) | file | package | samples */
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
    excludedAt: ts('excluded_at'),
    excludedBy: text('excluded_by').references(() => users.id, { onDelete: 'set null' }),
    exclusionReason: text('exclusion_reason'),
    /** How many attempts the submission has had (the newest is the one its state and outcome come from). */
    attempts: integer('attempts').notNull().default(1),
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

/** The files of a submission (today one, named `source`). */
export const submissionFiles = sqliteTable(
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

// ---- judging: runners, attempts (the jobs), trials ----

export const runners = sqliteTable(
  'runners',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** base64 of the raw 32-byte Ed25519 key */
    publicKey: text('public_key').notNull(),
    /** lowercase hex SHA-256 of the raw key */
    fingerprint: text('fingerprint').notNull(),
    /** pendingApproval | approved | revoked */
    state: text('state').notNull(),
    problemTypes: text('problem_types', { mode: 'json' }).$type<string[]>().notNull(),
    tags: text('tags', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    address: text('address'),
    version: text('version'),
    registeredAt: ts('registered_at').notNull(),
    approvedAt: ts('approved_at'),
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
    lastSeenAt: ts('last_seen_at'),
    completedJobs: integer('completed_jobs').notNull().default(0),
    /** The language ids it reported at its last authentication; null when it reported none (it may judge any) */
    languages: text('languages', { mode: 'json' }).$type<string[]>(),
  },
  (t) => [uniqueIndex('runners_fingerprint').on(t.fingerprint), index('runners_registered').on(t.registeredAt)],
);

/** Runner tokens, stored only as their SHA-256; they die with the runner's approval. */
export const runnerTokens = sqliteTable(
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

/**
 * One-time enrolment codes: a runner registering with one is approved at once. Only the code's
 * SHA-256 is kept; a withdrawn code's row is deleted.
 */
export const runnerEnrolmentCodes = sqliteTable(
  'runner_enrolment_codes',
  {
    id: text('id').primaryKey(),
    /** lowercase hex SHA-256 of the code as issued (upper case, no dashes) */
    codeHash: text('code_hash').notNull(),
    /** The name and tags a runner enrolled with it gets; null name: the runner's own */
    name: text('name'),
    tags: text('tags', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    uses: integer('uses').notNull(),
    used: integer('used').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    lastUsedAt: ts('last_used_at'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('runner_enrolment_codes_hash').on(t.codeHash), index('runner_enrolment_codes_expires').on(t.expiresAt)],
);

/** Files a runner attached to itself (its log, its machine description); one per name. */
export const runnerFiles = sqliteTable(
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

/**
 * The columns of a job a runner claims under a lease (an attempt, a trial, a sample run): when it
 * was queued, claimed and finished, by which runner (its name kept when the runner is deleted), and
 * the lease (its token kept only as its SHA-256). A function, since each table needs its own columns.
 */
const leasedJobColumns = () => ({
  createdAt: ts('created_at').notNull(),
  /** When it was last claimed (a requeued job keeps its place in the queue by createdAt); for display. */
  claimedAt: ts('claimed_at'),
  finishedAt: ts('finished_at'),
  runnerId: text('runner_id').references(() => runners.id, { onDelete: 'set null' }),
  runnerName: text('runner_name'),
  leaseHash: text('lease_hash'),
  leaseExpiresAt: ts('lease_expires_at'),
});

/**
 * One judging of a submission: the job a runner claims. The newest attempt of a submission gives
 * it its state and outcome; a rejudge appends one. The lease token is kept only as its SHA-256.
 */
export const attempts = sqliteTable(
  'attempts',
  {
    id: text('id').primaryKey(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    /** queued | running | completed | failed | cancelled */
    state: text('state').notNull(),
    /** 0 for a first attempt, 1 for a rejudge or a delivery that failed: first attempts are claimed first. */
    priority: integer('priority').notNull().default(0),
    problemVersionId: text('problem_version_id')
      .notNull()
      .references(() => problemVersions.id, { onDelete: 'restrict' }),
    /** The problem's type when queued (types never change); runners match it exactly. */
    problemType: text('problem_type').notNull(),
    ...leasedJobColumns(),
    deliveries: integer('deliveries').notNull().default(0),
    progressDone: integer('progress_done'),
    progressTotal: integer('progress_total'),
    resultId: text('result_id'),
    /** The delivery whose infrastructure-failure report was last accepted, so that its repeat is a duplicate. */
    failedLeaseHash: text('failed_lease_hash'),
    failedReportId: text('failed_report_id'),
    verdict: text('verdict'),
    score: real('score'),
    maxScore: real('max_score'),
    failureReason: text('failure_reason'),
    runnerVersion: text('runner_version'),
    extra: text('extra', { mode: 'json' }).$type<Record<string, unknown>>(),
    props: text('props', { mode: 'json' }).$type<Record<string, unknown>>(),
  },
  (t) => [
    uniqueIndex('attempts_number').on(t.submissionId, t.attempt),
    uniqueIndex('attempts_result').on(t.resultId),
    // the claim: queued jobs in the order they are handed out. Partial, like attempts_lease: a job
    // enters and leaves each once, rather than moving within it on every change of state (fewer
    // pages written by every claim and report; finished jobs, nearly all of them, are in neither)
    index('attempts_queue').on(t.state, t.priority, t.createdAt).where(sql`state = 'queued'`),
    index('attempts_runner').on(t.runnerId, t.state),
    // the reaper: running jobs by lease expiry
    index('attempts_lease').on(t.state, t.leaseExpiresAt).where(sql`state = 'running'`),
  ],
);

/** Files attached to an attempt by its runner (details, log, ...). */
export const attemptFiles = sqliteTable(
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

/** A check of a problem package: a runner judges the package's own example submissions. */
export const trials = sqliteTable(
  'trials',
  {
    id: text('id').primaryKey(),
    activityId: text('activity_id').references(() => activities.id, { onDelete: 'cascade' }),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    /** queued | running | completed | failed */
    state: text('state').notNull(),
    problemType: text('problem_type').notNull(),
    packageFileId: text('package_file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
    ...leasedJobColumns(),
    deliveries: integer('deliveries').notNull().default(0),
    measurement: text('measurement'),
    failureReason: text('failure_reason'),
    /** The version whose time limit this trial computes (the server queued it, its package names none); null for a user's trial. */
    calibratesVersionId: text('calibrates_version_id').references(() => problemVersions.id, { onDelete: 'cascade' }),
  },
  (t) => [index('trials_queue').on(t.state, t.createdAt), index('trials_creator').on(t.createdBy, t.state), index('trials_lease').on(t.state, t.leaseExpiresAt)],
);

/**
 * A participant's code run on a problem's samples only (docs/web-pages.md "Run on samples"): never a
 * submission, kept briefly (retention), its source inline since it is small and short-lived.
 */
export const sampleRuns = sqliteTable(
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
    /** JSON: [{ name, code }] */
    sources: text('sources').notNull(),
    language: text('language'),
    /** queued | running | completed | failed | cancelled */
    state: text('state').notNull(),
    ...leasedJobColumns(),
    verdict: text('verdict'),
    compileOutput: text('compile_output'),
    /** JSON: the samples' results as reported */
    results: text('results'),
    failureReason: text('failure_reason'),
  },
  (t) => [index('sample_runs_queue').on(t.state, t.createdAt), index('sample_runs_user').on(t.userId, t.createdAt), index('sample_runs_lease').on(t.state, t.leaseExpiresAt)],
);

// ---- contest day: questions, announcements, printouts ----

/** A participant's question or a manager's announcement (`kind`), about the activity, a series or an assignment. */
export const questions = sqliteTable(
  'questions',
  {
    id: text('id').primaryKey(),
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    /** question | announcement */
    kind: text('kind').notNull(),
    topic: text('topic').notNull(),
    body: text('body').notNull(),
    authorUserId: text('author_user_id').references(() => users.id, { onDelete: 'set null' }),
    seriesId: text('series_id').references(() => series.id, { onDelete: 'set null' }),
    seriesProblemId: text('series_problem_id').references(() => seriesProblems.id, { onDelete: 'set null' }),
    answerBody: text('answer_body'),
    answerUserId: text('answer_user_id').references(() => users.id, { onDelete: 'set null' }),
    answeredAt: ts('answered_at'),
    isPublished: bool('is_published').notNull().default(false),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('questions_activity').on(t.activityId, t.createdAt), index('questions_author').on(t.authorUserId)],
);

/** Who marked which question read: the participant's unread badge. */
export const questionReads = sqliteTable(
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

/** The canned answers staff pick from; one row, absent until an administrator edits them. */
export const cannedAnswers = sqliteTable('canned_answers', {
  id: integer('id').primaryKey(),
  answers: text('answers', { mode: 'json' }).$type<string[]>().notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/**
 * A request to print. `source` is the text printed, cleared when it is disposed of; `print_*`
 * record what the configured printing command did with its PDF.
 */
export const printouts = sqliteTable(
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
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    submissionId: text('submission_id').references(() => submissions.id, { onDelete: 'set null' }),
    seriesProblemId: text('series_problem_id').references(() => seriesProblems.id, { onDelete: 'set null' }),
    /** queued | claimed | resolved */
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
    printExitCode: integer('print_exit_code'),
    printOutput: text('print_output'),
  },
  (t) => [
    index('printouts_activity').on(t.activityId, t.state, t.requestedAt),
    index('printouts_user').on(t.userId, t.activityId),
    index('printouts_disposal').on(t.resolvedAt).where(sql`source_disposed_at is null`),
  ],
);

/**
 * The event log of a cluster (docs/storage.md, "Several servers"): on PostgreSQL every committed
 * write's bus messages, appended in the same transaction, in commit order; each server's reader
 * hands the rows after its cursor to its own bus. The id is the cursor. SQLite (one process)
 * publishes straight after commit and leaves it empty.
 */
export const events = sqliteTable(
  'events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    createdAt: ts('created_at').notNull(),
    /** The bus message (events/bus.ts' BusMessage) as JSON. */
    message: text('message').notNull(),
  },
  (t) => [index('events_created').on(t.createdAt)],
);

/**
 * The CLICS event feed of each contest (modules/clics/event-log.ts, decisions §25): append-only, the
 * id is the feed's token. `audience`: `admin`, `public`, or `team:USERID` for a team's own version of
 * an object; `data` null is a deletion. Written by one server (the cluster's leader), each write under
 * a lock held to its commit, so ids grow in commit order.
 */
export const clicsEvents = sqliteTable(
  'clics_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    activityId: text('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    audience: text('audience').notNull(),
    type: text('type').notNull(),
    /** Null for the contest and its state (singletons). */
    objectId: text('object_id'),
    /** The object as the REST endpoint gives it, as JSON; null: it was deleted. */
    data: text('data'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('clics_events_activity').on(t.activityId, t.id)],
);

/** The judge servers sharing the database, each with its last heartbeat (src/cluster/servers.ts). */
export const servers = sqliteTable('servers', {
  id: text('id').primaryKey(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  version: text('version').notNull(),
  startedAt: ts('started_at').notNull(),
  heartbeatAt: ts('heartbeat_at').notNull(),
  /** Whether it held the leadership (and ran the workers) at its last heartbeat. */
  leader: bool('leader').notNull().default(false),
  /** The id of the last event its reader handed to its bus; null where there is no event log (SQLite). */
  eventCursor: integer('event_cursor'),
});

// ---- LTI 1.3: the judge as a tool that LMSs launch (lti module, docs/decisions.md §21) ----

/**
 * An LMS registered as an LTI 1.3 platform: one row per registration (issuer, client id,
 * deployment). A platform that is an identity authority makes accounts for the people it launches
 * (logins under `identity_namespace`); any other signs in only accounts already linked to it.
 */
export const ltiPlatforms = sqliteTable(
  'lti_platforms',
  {
    id: text('id').primaryKey(),
    displayName: text('display_name').notNull(),
    /** Exactly as the platform's tokens say it in `iss`. */
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    deploymentId: text('deployment_id').notNull(),
    keySetUrl: text('key_set_url').notNull(),
    authTokenUrl: text('auth_token_url').notNull(),
    authLoginUrl: text('auth_login_url').notNull(),
    isIdentityAuthority: bool('is_identity_authority').notNull().default(false),
    identityNamespace: text('identity_namespace'),
    /** The ID token claim a new account's login is made from (`email`, `preferred_username`, `sub`, ...). */
    usernameClaim: text('username_claim').notNull(),
    enabled: bool('enabled').notNull().default(true),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('lti_platforms_registration').on(t.issuer, t.clientId, t.deploymentId)],
);

/** The tool's own RSA key pairs: the current one (not retired) signs; a retired one stays published for a while. */
export const ltiKeys = sqliteTable('lti_keys', {
  kid: text('kid').primaryKey(),
  /** PKCS8 PEM; never leaves the server. */
  privateKey: text('private_key').notNull(),
  publicJwk: text('public_jwk', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  createdAt: ts('created_at').notNull(),
  retiredAt: ts('retired_at'),
});

/** A started LTI login (OIDC third-party initiation): the state's SHA-256 and the nonce the ID token must carry. */
export const ltiLogins = sqliteTable(
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

/** A launch that arrived in a frame: its SHA-256, redeemed once in a window of its own for the session. */
export const ltiTickets = sqliteTable(
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

/** An account's link to a platform: the platform's `sub` for it. */
export const ltiIdentities = sqliteTable(
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

/**
 * A resource link of a platform's course (context) bound to an activity, or to one of its
 * assignments; `line_item_url` is where its scores go (Assignment and Grade Services).
 */
export const ltiPlacements = sqliteTable(
  'lti_placements',
  {
    id: text('id').primaryKey(),
    platformId: text('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'restrict' }),
    /** '' when the launch named no context. */
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

/**
 * A learner of a placement whose score goes back to the platform: `changes` counts what happened
 * to their submissions, `sent_changes` how many of those the last score sent covered; the grade
 * worker sends while they differ, at `next_attempt_at` (backing off while the platform fails).
 */
export const ltiGrades = sqliteTable(
  'lti_grades',
  {
    placementId: text('placement_id')
      .notNull()
      .references(() => ltiPlacements.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The platform's `sub` for the learner: the score's userId. */
    subject: text('subject').notNull(),
    changes: integer('changes').notNull().default(0),
    sentChanges: integer('sent_changes').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    failures: integer('failures').notNull().default(0),
    sentScore: real('sent_score'),
    sentMaximum: real('sent_maximum'),
    sentAt: ts('sent_at'),
    lastError: text('last_error'),
  },
  (t) => [uniqueIndex('lti_grades_pk').on(t.placementId, t.userId), index('lti_grades_user').on(t.userId), index('lti_grades_due').on(t.nextAttemptAt)],
);

/**
 * A request to delete an account (modules/account/deletion-requests.ts): from an identity provider's
 * back channel (`channel` provider). Carried out by the sweeper once `due_at` passes, unless an
 * administrator halts it; an account with system permissions beyond a participant's waits for an
 * administrator (`attention`). The user link is dropped if the row of the account ever goes.
 */
export const accountDeletionRequests = sqliteTable(
  'account_deletion_requests',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    providerId: text('provider_id').references(() => identityProviders.id, { onDelete: 'set null' }),
    /** The provider's own id of the request: the same one twice records one request. */
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
