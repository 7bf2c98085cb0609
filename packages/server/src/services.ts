import type Database from 'better-sqlite3';
import type { Logger } from 'pino';
import type { PasswordHasher } from './auth/passwords.js';
import type { Permissions } from './auth/permissions.js';
import type { Sessions } from './auth/sessions.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { Transactor } from './db/transactor.js';
import type { LimitStore } from './http/limits.js';
import type { EventBus } from './events/bus.js';
import type { BoundedPool } from './offloop/pool.js';
import type { Mailer } from './mail/mailer.js';
import type { Outgoing } from './mail/outgoing.js';
import type { Clock } from './util.js';

/** What every service is built from; app.ts makes one of these per server. */
export interface Deps {
  config: Config;
  dataDir: string;
  tx: Transactor;
  clock: Clock;
  log: Logger;
  bus: EventBus;
  permissions: Permissions;
  sessions: Sessions;
  hasher: PasswordHasher;
  /** Where request limits and sign-in budgets are counted (shared by every server on PostgreSQL). */
  limits: LimitStore;
  /** This server among the servers of a cluster (cluster/cache-notes.ts). */
  serverId: string;
  /** Threads with time and memory limits for heavy work on untrusted input (printouts, statements). */
  offloop: BoundedPool;
  /** Live socket count of a session, answered by the event hub. */
  connections(sessionId: string): number;
  /** Sends the judge's mail: over SMTP (`mail.smtpUrl`), or into DATA_DIR/outbox/ (mail/mailer.ts). */
  mail: Mailer;
  /** The mail of writes, sent after they commit and tried again while it fails (mail/outgoing.ts). */
  outgoing: Outgoing;
}

/**
 * The server's `Deps` with SQLite's synchronous handles, which no service sees: for what works on
 * the SQLite file itself (the control socket's snapshot), and for tests and benchmarks that look
 * at it. On PostgreSQL they are stand-ins that refuse every use (db/open-storage.ts).
 */
export interface AppDeps extends Deps {
  db: Db;
  sqlite: Database.Database;
}
