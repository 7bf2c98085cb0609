import { z } from 'zod';
import { Email, Timestamp } from '../wire.js';
import { isPermission } from '../permissions.js';
import { FileRef } from './files.js';
import { LogoTranslation, Theme } from './instance-branding.js';

/** The runner `judge up` starts and supervises beside the server (absent under `judge serve`). */
export const LocalRunnerHealth = z
  .object({
    state: z.enum(['running', 'restarting', 'notStarted', 'stopping']).meta({ description: 'notStarted: never started or given up (see reason)' }),
    pid: z.number().int().optional(),
    since: Timestamp.meta({ description: 'When it entered this state' }),
    restarts: z.number().int().min(0).meta({ description: 'Restarts after an exit since the server started' }),
    nextAttemptAt: Timestamp.optional().meta({ description: 'restarting: when the next start is due' }),
    reason: z.string().optional().meta({ description: 'notStarted: why' }),
    lastExit: z
      .object({ at: Timestamp, code: z.number().int().optional().meta({ description: 'Exit code, when it exited by itself' }), signal: z.string().optional().meta({ description: 'The signal that ended it' }) })
      .optional()
      .meta({ description: 'How the previous process ended (its last output lines are in the server log)' }),
  })
  .meta({ description: 'The local runner of `judge up` (extension)' });
export type LocalRunnerHealth = z.infer<typeof LocalRunnerHealth>;

/** open: serving; draining: no new submissions, judging goes on; closed: only health and administrators (extension). */
export const MaintenanceLevel = z.enum(['open', 'draining', 'closed']);
export type MaintenanceLevel = z.infer<typeof MaintenanceLevel>;

/** The maintenance level as `maintenanceChanged` and the administrators' API tell it (the peer's shape). */
export const MaintenanceState = z
  .object({
    level: MaintenanceLevel,
    since: Timestamp.optional().meta({ description: 'When this level was entered; absent while open' }),
    reason: z.string().optional().meta({ description: "The administrator's note, shown to users" }),
  })
  .meta({ description: 'The maintenance level (extension)' });
export type MaintenanceState = z.infer<typeof MaintenanceState>;

export const SetMaintenanceRequest = z.object({
  level: MaintenanceLevel,
  reason: z.string().trim().max(500).optional().meta({ description: 'Shown to users while the level lasts; ignored for open' }),
});

/** The kinds of broadcast the existing client of this interface renders (success, info, warning, error). */
export const SystemMessageType = z.enum(['success', 'info', 'warning', 'error']);
export type SystemMessageType = z.infer<typeof SystemMessageType>;

export const SystemMessageRequest = z.object({
  type: SystemMessageType.default('info'),
  text: z.string().trim().min(1).max(2000),
});

/** The runners this server knows (extension): connected means seen within the last two minutes. */
export const RunnerCounts = z
  .object({
    connected: z.number().int().min(0).meta({ description: 'Approved runners seen within the last two minutes: 0 means nothing is judged now' }),
    approved: z.number().int().min(0).meta({ description: 'Runners allowed to judge, connected or not' }),
    pendingApproval: z.number().int().min(0).meta({ description: 'Registered runners waiting for an administrator to approve them' }),
  })
  .meta({ description: 'Runners known to the server (extension)' });

/** Judging work in the queue (extension). */
export const QueueCounts = z
  .object({
    queued: z.number().int().min(0).meta({ description: 'Judgings waiting for a runner (submissions and rejudges)' }),
    running: z.number().int().min(0).meta({ description: 'Judgings a runner holds now' }),
  })
  .meta({ description: 'The judging queue (extension)' });

/** This server of a cluster (extension): which one answered, whether it leads, how far behind its hub is. */
export const ThisServerHealth = z
  .object({
    id: z.string().meta({ description: "This server's id in the cluster view; a new one each time the server starts" }),
    leader: z.boolean().meta({ description: 'Whether this server runs the workers (series scheduler, lease reaper, ranking announcer, retention)' }),
    lag: z.number().int().min(0).optional().meta({ description: "Events committed that this server's socket hub has not read yet; absent on SQLite, where there is no event log" }),
  })
  .meta({ description: 'The server that answered (extension)' });
export type ThisServerHealth = z.infer<typeof ThisServerHealth>;

/** One server of the cluster view; host, pid and startedAt only for administrators. */
export const ClusterServerHealth = z
  .object({
    id: z.string(),
    version: z.string(),
    leader: z.boolean(),
    lag: z.number().int().min(0).optional().meta({ description: 'Events its hub had not read at its last heartbeat; absent on SQLite' }),
    heartbeatAgeMs: z.number().int().min(0).meta({ description: 'Milliseconds since its last heartbeat (every 5 s; a server silent for 15 s is no longer listed)' }),
    host: z.string().optional().meta({ description: 'Its host name (administrators only)' }),
    pid: z.number().int().optional().meta({ description: 'Its process id (administrators only)' }),
    startedAt: Timestamp.optional().meta({ description: 'When it started (administrators only)' }),
  })
  .meta({ description: 'A server alive in the cluster (extension)' });
export type ClusterServerHealth = z.infer<typeof ClusterServerHealth>;

/** The servers alive on one database (extension): on SQLite, this one server. */
export const ClusterHealth = z
  .object({
    engine: z.enum(['sqlite', 'postgres']),
    leader: z.string().optional().meta({ description: 'The id of the server that runs the workers; absent while none does (a failover takes seconds)' }),
    newestEventId: z.number().int().min(0).optional().meta({ description: 'The newest event log id, which each lag counts from; absent on SQLite' }),
    servers: z.array(ClusterServerHealth).meta({ description: 'Servers whose heartbeat is recent, oldest first' }),
  })
  .meta({ description: 'The cluster of servers sharing the database (extension)' });
export type ClusterHealth = z.infer<typeof ClusterHealth>;

/** This server's outgoing mail (extension, administrators only): what waits to be sent, and what was given up. */
export const MailHealth = z
  .object({
    transport: z.enum(['smtp', 'outbox']).meta({ description: 'smtp when mail.smtpUrl is set, else outbox (DATA_DIR/outbox/)' }),
    pending: z.number().int().min(0).meta({ description: 'Messages being sent or waiting for another try (after 10 s, 1 min, 5 min and 30 min)' }),
    failures: z
      .array(
        z.object({
          to: z.string(),
          subject: z.string(),
          reason: z.string().meta({ description: "The last try's failure, as the SMTP server answered it" }),
          at: Timestamp.meta({ description: 'When it was given up' }),
          tries: z.number().int().min(1),
        }),
      )
      .meta({ description: 'Messages given up after every try, newest first (the last 10 since this server started)' }),
  })
  .meta({ description: "This server's outgoing mail (extension; administrators only)" });

export const Health = z.object({
  status: z.literal('ok'),
  version: z.string(),
  maintenance: z.enum(['draining', 'closed']).optional(),
  localRunner: LocalRunnerHealth.optional(),
  runners: RunnerCounts,
  queue: QueueCounts,
  server: ThisServerHealth,
  cluster: ClusterHealth,
  mail: MailHealth.optional(),
  serverTime: Timestamp.meta({
    description: "The server's clock when it answered, with milliseconds: clients measure their own clock's offset from it (contest clocks must not trust the browser's) (extension)",
  }),
});
export type Health = z.infer<typeof Health>;

export const InstanceDocument = z.object({
  kind: z.string(),
  language: z.string(),
  title: z.string(),
  validFrom: Timestamp,
  isTemplate: z.boolean(),
  fileId: z.string(),
  sha256: z.string(),
  sizeBytes: z.number().int(),
});
export type InstanceDocument = z.infer<typeof InstanceDocument>;

export const InstanceSettings = z.object({
  name: z.string(),
  localRegistrationEnabled: z.boolean(),
  requireEmail: z.boolean(),
  requireConfirmedEmail: z.boolean(),
  requireApproval: z.boolean().meta({ description: 'Self-registered accounts start unapproved (extension)' }),
  externalJudgingEnabled: z.boolean(),
  seriesRestrictionsEnabled: z.boolean(),
  documents: z.array(InstanceDocument),
  logo: FileRef.optional(),
  logoTranslations: z.array(LogoTranslation),
  showLogo: z.boolean(),
  showLocalSignIn: z.boolean(),
  showHero: z.boolean(),
  accountDeletionEnabled: z.boolean(),
  allowRenameStaffAccounts: z.boolean().meta({ description: 'Accounts staff created (users create, a class list) may change their own login and name; off by default' }),
  allowRenameSelfRegistered: z.boolean().meta({ description: 'Self-registered accounts may change their own login and name; off by default' }),
  keepSignedInByDefault: z.boolean().meta({ description: "The sign-in page's \"Keep me signed in\" starts ticked; off by default (shared lab PCs)" }),
  requireTwoFactorFor: z.array(z.string()).meta({
    description: 'Permissions an account holds only once it has two-factor sign-in on (extension): until then its grants lack these keys, and the refusal says why; empty by default',
  }),
  providers: z.array(z.object({ slug: z.string(), displayName: z.string() })),
  signInRedirectProvider: z.string().optional().meta({ description: 'The slug of the enabled provider the sign-in page sends to at once (absent: the page is shown)' }),
  registerRedirectProvider: z.string().optional().meta({ description: 'The slug of the enabled provider the registration page sends to at once' }),
  theme: Theme,
});
export type InstanceSettings = z.infer<typeof InstanceSettings>;

const RedirectSlug = z.string().trim().toLowerCase().max(64);

export const UpdateInstanceRequest = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  localRegistrationEnabled: z.boolean().optional(),
  requireEmail: z.boolean().optional(),
  requireConfirmedEmail: z.boolean().optional(),
  requireApproval: z.boolean().optional(),
  showLogo: z.boolean().optional(),
  showLocalSignIn: z.boolean().optional(),
  accountDeletionEnabled: z.boolean().optional(),
  allowRenameStaffAccounts: z.boolean().optional(),
  allowRenameSelfRegistered: z.boolean().optional(),
  keepSignedInByDefault: z.boolean().optional(),
  requireTwoFactorFor: z
    .array(z.string().refine(isPermission, 'not a permission'))
    .max(100)
    .optional()
    .meta({ description: 'Replaces the list; refused when it would take a permission from the caller, who must turn on two-factor sign-in first' }),
  signInRedirectProvider: RedirectSlug.optional().meta({ description: 'The slug of an identity provider the sign-in page sends to at once (extension); empty: none' }),
  registerRedirectProvider: RedirectSlug.optional().meta({ description: 'The slug of an identity provider the registration page sends to at once (extension); empty: none' }),
});

/** The most entries the external-content list holds. */
export const MAX_EXTERNAL_HOSTS = 100;

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Why an entry of the external-content list is refused, or undefined for a good one. An entry is a
 * lowercase host name (an IPv4 address is one too), optionally `*.` before it for its subdomains
 * (not the name itself) and `:port` after it: no scheme, path, user name, or IPv6 address.
 */
export function externalHostProblem(entry: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(entry)) return 'give the host alone, without a scheme such as https://';
  if (/[/?#]/.test(entry)) return 'give the host alone, without a path';
  if (entry.includes('@')) return 'give the host alone, without a user name';
  if (entry.includes('[') || (entry.match(/:/g) ?? []).length > 1) return 'IPv6 addresses are not accepted; give a host name';
  const [host = '', port, ...rest] = entry.split(':');
  if (rest.length) return 'not a host name';
  if (port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535)) return 'the port must be a number from 1 to 65535';
  const wildcard = host.startsWith('*.');
  const name = wildcard ? host.slice(2) : host;
  if (name.includes('*')) return 'a wildcard is only *. before a domain, as in *.github.io';
  if (!name || name.length > 253 || !name.split('.').every((l) => LABEL.test(l))) return 'not a host name (letters, digits and hyphens in dot-separated labels; internationalised names in their xn-- form)';
  if (wildcard && !name.includes('.')) return `*.${name} would allow a whole top-level domain`;
  return undefined;
}

/** One entry of the external-content list, trimmed and lowercased before it is checked. */
export const ExternalHost = z
  .string()
  .trim()
  .toLowerCase()
  .superRefine((entry, ctx) => {
    const why = externalHostProblem(entry);
    if (why) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(entry)}: ${why}` });
  })
  .meta({ description: 'A host name (files.example.org), *. and a domain for its subdomains (*.github.io, not github.io itself), optionally :port' });

/** The hosts `POST /files/fetch` may download from (the peer's shape). */
export const ExternalContent = z
  .object({
    enabled: z.boolean().meta({ description: 'Whether any host is listed: without one, every fetch is refused' }),
    hosts: z.array(z.string()).meta({ description: 'Sorted; an entry without a port allows only the default ports (80, 443)' }),
  })
  .meta({ description: "The instance's external-content list: the hosts files may be fetched from" });
export type ExternalContent = z.infer<typeof ExternalContent>;

export const SetExternalContentRequest = z.object({
  hosts: z
    .array(ExternalHost)
    .max(MAX_EXTERNAL_HOSTS)
    .transform((hosts) => [...new Set(hosts)].sort())
    .meta({ description: `Replaces the list (at most ${MAX_EXTERNAL_HOSTS}); entries are lowercased, duplicates dropped and the rest sorted; an empty list turns fetching off` }),
});

/** Where to send the administrator's test message (extension). */
export const TestMailRequest = z.object({
  to: Email.meta({ description: 'The address the test message goes to' }),
});

/** Where the test message went (extension). */
export const TestMailResult = z
  .object({
    transport: z.enum(['smtp', 'outbox']).meta({ description: 'smtp: handed to the server `mail.smtpUrl` names; outbox: no SMTP server is set, the message was written to DATA_DIR/outbox/' }),
    from: z.string().meta({ description: 'The sender every message of the judge has (setting mail.from)' }),
    messageId: z.string(),
    file: z.string().optional().meta({ description: 'outbox: the file under DATA_DIR/outbox/ of the server that answered' }),
    response: z.string().optional().meta({ description: "smtp: the SMTP server's answer to the message" }),
  })
  .meta({ description: 'Where the test message went (extension)' });
export type TestMailResult = z.infer<typeof TestMailResult>;
