import { randomUUID } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTls } from './tls.js';
import Koa from 'koa';
import type { Logger } from 'pino';
import { PasswordHasher } from './auth/passwords.js';
import { Permissions } from './auth/permissions.js';
import { Sessions } from './auth/sessions.js';
import { applyCacheNotes } from './cluster/cache-notes.js';
import { eventHooks } from './cluster/event-log.js';
import { ClusterNode } from './cluster/node.js';
import type { Config } from './config.js';
import { memoryLimits, postgresLimits, type LimitStore } from './http/limits.js';
import { isPostgresUrl, maskDatabaseUrl } from './db/database-url.js';
import { holdsJudgeData, openStorage, type StorageHandle } from './db/open-storage.js';
import { describeStuck } from './db/rw-lock.js';
import type { Engine } from './db/storage.js';
import { Transactor } from './db/transactor.js';
import { dataPaths, ensureDataDirs, isInitialised, lockDataDir } from './datadir.js';
import { EventBus } from './events/bus.js';
import { EventHub } from './events/hub.js';
import { Api } from './http/api.js';
import { clientAddress, type RequestState } from './http/context.js';
import { authenticate, edge, rateLimit } from './http/middleware.js';
import { webApp } from './http/web-app.js';
import { openLogFile } from './log-file.js';
import { AccessService, accessRoutes } from './modules/access/index.js';
import { AccountService, accountRoutes, DeletionRequests, deletionRequestRoutes, DeletionSweeper } from './modules/account/index.js';
import { ActivitiesService, activitiesRoutes } from './modules/activities/index.js';
import { AwardsService, awardsRoutes } from './modules/awards/index.js';
import { CeremonyService, ceremonyRoutes } from './modules/ceremony/index.js';
import { DashboardService, dashboardRoutes } from './modules/dashboard/index.js';
import { BlobStore, FilesService, filesRoutes } from './modules/files/index.js';
import { ClicsEventLog, ClicsFeeds, clicsMiddleware, type ClicsServices } from './modules/clics/index.js';
import { IdentityService, identityRoutes } from './modules/identity/index.js';
import { InstanceService, instanceRoutes, maintenanceGate } from './modules/instance/index.js';
import { Judging, judgingRoutes } from './modules/judging/index.js';
import { ParticipantService, participantRoutes } from './modules/participant/index.js';
import { activityViewers } from './modules/policy/index.js';
import { PrintoutsService, printoutsRoutes, pruneDisposed } from './modules/printouts/index.js';
import { ProblemsService, problemsRoutes } from './modules/problems/index.js';
import { QuestionsService, questionsRoutes } from './modules/questions/index.js';
import { RankingService, rankingRoutes } from './modules/ranking/index.js';
import { ScoreboardsService, scoreboardsRoutes } from './modules/scoreboards/index.js';
import { RunnersService, runnerRoutes } from './modules/runners/index.js';
import { SeriesService, seriesRoutes } from './modules/series/index.js';
import { SampleRunsService, sampleRunsRoutes } from './modules/sample-runs/index.js';
import { SubmissionsService, submissionsRoutes } from './modules/submissions/index.js';
import { TemporaryUsersService, temporaryUsersRoutes } from './modules/temporary-users/index.js';
import { UserMergesService, userMergesRoutes } from './modules/user-merges/index.js';
import { IdentityProvidersService, identityProvidersRoutes, ProviderSignIn } from './modules/identity-providers/index.js';
import { LtiGrades, LtiLanding, LtiLaunch, LtiPlatformsService, ltiRoutes, ToolKeys } from './modules/lti/index.js';
import { UsersService, usersRoutes } from './modules/users/index.js';
import { startControlSocket } from './ops/control.js';
import { BoundedPool, type PoolOptions } from './offloop/pool.js';
import { openMailer } from './mail/mailer.js';
import { Outgoing } from './mail/outgoing.js';
import type { AppDeps, Deps } from './services.js';
import { systemClock, type Clock } from './util.js';
import { LeaseReaper } from './workers/lease-reaper.js';
import { RankingAnnouncer } from './workers/ranking-announcer.js';
import { RetentionWorker } from './workers/retention.js';
import { SeriesScheduler } from './workers/series-scheduler.js';

export interface AppOptions {
  dataDir: string;
  config: Config;
  clock?: Clock;
  /** Given: the server logs there; otherwise to DATA_DIR/logs/judge.log (rotated). */
  logger?: Logger;
  /** The log file's lines also on standard output (`--log-format json`). */
  logToStdout?: boolean;
  /** The bounded pool's settings (threads, queue, limits by job); its defaults otherwise. */
  offloop?: PoolOptions;
}

/** The background workers, each with a `tick(now)` tests call directly. */
interface Workers {
  retention: RetentionWorker;
  scheduler: SeriesScheduler;
  rankingAnnouncer: RankingAnnouncer;
  reaper: LeaseReaper;
  ltiGrades: LtiGrades;
  deletionSweeper: DeletionSweeper;
  clicsEvents: ClicsEventLog;
}

export interface JudgeApp extends Workers {
  server: Server;
  /** e.g. http://127.0.0.1:41234, or https://… with built-in TLS */
  url: string;
  /**
   * Where a process on this machine reaches the API (the local runner): `url`, or with built-in
   * TLS a plain-HTTP listener on 127.0.0.1 (the certificate names the public host, not 127.0.0.1).
   */
  localUrl: string;
  port: number;
  /** On PostgreSQL the database's URL with its password masked; empty on the data directory's SQLite file. */
  database: string;
  deps: AppDeps;
  hub: EventHub;
  /** Ids of the contract operations this server serves. */
  operations: ReadonlySet<string>;
  services: Services;
  close(): Promise<void>;
}

export class NotInitialised extends Error {}

/** Every service of the server, built once from the shared dependencies. */
function createServices(deps: Deps, blobs: BlobStore) {
  // the files module asks the instance for its external-content list only when it fetches
  const files: FilesService = new FilesService(deps, blobs, () => instance.externalHosts());
  const instance = new InstanceService(deps, files);
  deps.permissions.withhold((userId, q) => instance.twoFactorWithheld(userId, q));
  files.addReadRule((_actor, fileId) => instance.showsFile(fileId));
  const account = new AccountService(deps, instance, blobs);
  const ranking = new RankingService(deps);
  const awards = new AwardsService(deps, ranking);
  const participant = new ParticipantService(deps, files);
  const ltiKeys = new ToolKeys(deps);
  const ltiGrades = new LtiGrades(deps, ltiKeys);
  // after commit: the ranking's cell and the author's standings in the series list are read again
  const submissionChanged = (activityId: string, userId: string, assignmentId: string) => {
    void ranking.submissionChanged(activityId, userId, assignmentId);
    participant.submissionChanged(activityId, userId);
    void ltiGrades.submissionChanged(activityId, userId);
  };
  const judging = new Judging(deps, files, { resultEvents: (q, submissionId) => ranking.resultEventsIn(q, submissionId), submissionChanged });
  const series = new SeriesService(deps);
  const submissions = new SubmissionsService(deps, files, judging.forSubmissions);
  const made = {
    instance,
    identity: new IdentityService(deps, instance, account),
    account,
    deletionRequests: new DeletionRequests(deps, blobs),
    users: new UsersService(deps),
    temporaryUsers: new TemporaryUsersService(deps),
    userMerges: new UserMergesService(deps, { submissionChanged }),
    identityProviders: new IdentityProvidersService(deps, instance),
    providerSignIn: new ProviderSignIn(deps, instance),
    lti: { platforms: new LtiPlatformsService(deps), keys: ltiKeys, launch: new LtiLaunch(deps), landing: new LtiLanding(deps, instance.maintenance), grades: ltiGrades },
    access: new AccessService(deps),
    files,
    // content services
    participant,
    ranking,
    scoreboards: new ScoreboardsService(deps, ranking),
    series,
    problems: new ProblemsService(deps, files, judging.forProblems),
    activities: new ActivitiesService(deps, files, series),
    // judging services
    judging,
    submissions,
    sampleRuns: new SampleRunsService(deps, submissions, judging.sampleRuns),
    jobs: judging.jobs,
    trials: judging.trials,
    runners: new RunnersService(deps, judging.forRunners),
    // contest day
    questions: new QuestionsService(deps),
    printouts: new PrintoutsService(deps, files),
    dashboard: new DashboardService(deps),
    awards,
    ceremony: new CeremonyService(deps, ranking, async (actor, a) => (await awards.list(actor, a.id)).awards),
  };
  const clicsServices: ClicsServices = { ...made, blobs };
  const clicsLog = new ClicsEventLog(deps, clicsServices);
  const clicsFeeds = new ClicsFeeds(deps, { keepAliveMs: 10_000 });
  clicsLog.onAppended((activityId) => clicsFeeds.appended(activityId));
  return { ...made, clicsServices, clicsFeed: { log: clicsLog, feeds: clicsFeeds } };
}

export type Services = ReturnType<typeof createServices>;

export function packageVersion(): string {
  const pkg = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

type DataPaths = ReturnType<typeof dataPaths>;

/**
 * The data directory, locked, with its log and database open (the SQLite file, or the PostgreSQL
 * database the `database` setting names); the lock is let go if the database will not open.
 */
async function openDataDir(opts: AppOptions) {
  const { dataDir, config } = opts;
  const onPostgres = isPostgresUrl(config.database);
  const notInitialised = () => new NotInitialised(`${onPostgres ? `the database ${maskDatabaseUrl(config.database)}` : dataDir} holds no judge database; run \`judge init --data-dir ${dataDir}\`${onPostgres ? ' with the same database setting' : ''} first`);
  if (!onPostgres && !isInitialised(dataDir)) throw notInitialised();
  ensureDataDirs(dataDir, config.filesDir);
  const lock = lockDataDir(dataDir);
  const paths = dataPaths(dataDir, config.filesDir);
  const { log, closeLog } = opts.logger ? { log: opts.logger, closeLog: async () => {} } : openLogFile(config, join(paths.logs, 'judge.log'), opts.logToStdout);
  let dbh: StorageHandle | undefined;
  try {
    dbh = await openStorage(config.database, paths.db, (e) => log.warn({ err: e }, 'an idle database connection failed; the pool opens another'), config.databasePoolSize);
    if (dbh.engine.name === 'sqlite') dbh.engine.reportStuckTo((s) => log.warn({ lock: s }, describeStuck(s)));
    if (!(await holdsJudgeData(dbh.engine))) throw notInitialised();
    return { lock, paths, log, closeLog, dbh };
  } catch (e) {
    await dbh?.close();
    lock.release();
    void closeLog();
    throw e;
  }
}

/** The dependencies every service shares. Permissions are read again after any write that touched them; events leave after commit. */
function createDeps(opts: AppOptions, dbh: StorageHandle, log: Logger, limits: LimitStore, connections: Deps['connections']): AppDeps {
  const { config, dataDir } = opts;
  const bus = new EventBus();
  // the resolver reads through the transactor, which invalidates it: made in that order, tied by this reference
  let permissions: Permissions | undefined;
  const clock = opts.clock ?? systemClock;
  // names this server's notes in a cluster's event log (cluster/cache-notes.ts)
  const serverId = randomUUID();
  const tx = new Transactor(dbh.engine, {
    settled: [(out) => void (out.permissionsChanged && permissions?.invalidate())],
    ...eventHooks(dbh.engine.name, bus, clock, serverId),
  });
  permissions = new Permissions(tx);
  const sessions = new Sessions(tx, config.auth);
  const hasher = new PasswordHasher({ memoryKiB: config.auth.argon2MemoryKib, iterations: config.auth.argon2Iterations });
  const mail = openMailer({ smtpUrl: config.mail.smtpUrl, from: config.mail.from, publicUrl: config.publicUrl, dataDir, log });
  const outgoing = new Outgoing(mail, log, clock);
  return { config, dataDir, db: dbh.db, sqlite: dbh.sqlite, tx, clock, log, bus, permissions, sessions, hasher, limits, serverId, connections, offloop: new BoundedPool(opts.offloop), mail, outgoing };
}

/** Binds every area's routes to the contract's operations. */
function createApi(deps: Deps, services: Services): Api {
  const { config, sessions, clock } = deps;
  const api = new Api({
    jsonBodyBytes: config.limits.jsonBodyBytes,
    publicUrl: config.publicUrl,
    onSignedIn: (actor, path) => sessions.touch(actor, path.replace(/^\/api\/v1/, ''), clock.now()),
    authenticateRunner: (header, ctx) => services.runners.authenticate(header, clientAddress(ctx)),
  });
  instanceRoutes(api, services.instance, packageVersion(), services.files.blobs);
  identityRoutes(api, services.identity, deps.limits, { ...config.auth, publicUrl: config.publicUrl });
  accessRoutes(api, services.access);
  usersRoutes(api, services.users);
  temporaryUsersRoutes(api, services.temporaryUsers);
  userMergesRoutes(api, services.userMerges);
  identityProvidersRoutes(api, services.identityProviders, services.providerSignIn, { publicUrl: config.publicUrl, cookieDays: config.auth.cookieDays });
  ltiRoutes(api, services.lti, { publicUrl: config.publicUrl });
  accountRoutes(api, services.account, deps.config.publicUrl);
  deletionRequestRoutes(api, services.deletionRequests, deps.limits, config.auth.loginAttemptsPerMinute);
  filesRoutes(api, services.files, config.limits.uploadBytes);
  // content routes
  participantRoutes(api, services.participant);
  rankingRoutes(api, services.ranking);
  scoreboardsRoutes(api, services.scoreboards);
  seriesRoutes(api, services.series);
  problemsRoutes(api, services.problems);
  activitiesRoutes(api, services.activities);
  // judging routes
  submissionsRoutes(api, services.submissions, services.files.blobs.incomingDir);
  judgingRoutes(api, services.jobs, services.trials, services.files);
  sampleRunsRoutes(api, services.sampleRuns, services.judging.sampleRuns);
  runnerRoutes(api, services.runners, services.files, deps.limits, config.limits.uploadBytes);
  questionsRoutes(api, services.questions);
  printoutsRoutes(api, services.printouts);
  dashboardRoutes(api, services.dashboard);
  awardsRoutes(api, services.awards);
  ceremonyRoutes(api, services.ceremony);
  return api;
}

/**
 * The request handler: the edge (request ids, problem+json, log line), which operation the request
 * reaches (every gate after it asks that, not the path), authentication, the maintenance gate, the
 * rate limit, the API, then the web app for what the API did not answer.
 */
function createHandler(deps: Deps, api: Api, services: Services): RequestListener {
  const { config, log, sessions, clock } = deps;
  const koa = new Koa<RequestState>({ proxy: config.trustProxy });
  koa.silent = true;
  koa.use(edge(log, config.publicUrl.startsWith('https:') || !!config.tls.certFile));
  koa.use(api.classify());
  koa.use(authenticate(sessions, clock));
  koa.use(maintenanceGate(services.instance.maintenance, deps.permissions));
  koa.use(rateLimit(config.limits.requestsPerMinute, deps.limits));
  // the CLICS Contest API (decisions §25): its own paths, outside the judge's operations
  koa.use(clicsMiddleware(deps, services.clicsServices, services.clicsFeed, services.identity));
  koa.use(api.routes());
  koa.use(api.allowedMethods());
  koa.use(webApp(config.web.dir, log));
  return koa.callback();
}

/**
 * The workers, run by the server that leads the cluster (cluster/leader.ts): on SQLite the one
 * server, at once; on PostgreSQL one server at a time, moving when the leader dies. Work queued on
 * any server wakes this one's long polls.
 */
async function startWorkers(deps: Deps, services: Services, paths: DataPaths, engine: Engine): Promise<{ workers: Workers; cluster: ClusterNode }> {
  const workers: Workers = {
    retention: new RetentionWorker(deps.tx, paths.uploads, deps.clock, deps.log, { dir: paths.printouts, prune: (dir) => pruneDisposed(dir, deps.tx) }, (now) =>
      services.userMerges.anonymiseDue(now),
    ),
    scheduler: new SeriesScheduler(deps, services.series),
    rankingAnnouncer: new RankingAnnouncer(deps),
    reaper: new LeaseReaper(deps, services.judging),
    ltiGrades: services.lti.grades,
    deletionSweeper: new DeletionSweeper(deps, services.deletionRequests),
    clicsEvents: services.clicsFeed.log,
  };
  const cluster = await ClusterNode.start({
    engine,
    tx: deps.tx,
    bus: deps.bus,
    clock: deps.clock,
    log: deps.log,
    version: packageVersion(),
    serverId: deps.serverId,
    workers: { start: () => Object.values(workers).forEach((w) => w.start()), stop: () => Object.values(workers).forEach((w) => w.stop()) },
    onWork: (kind) => (kind === 'trials' ? services.trials : services.jobs).signal.notify(),
  });
  services.instance.watchCluster(() => cluster.report());
  // on SQLite nothing is noted for other servers, and a listener would only make every write build its events
  if (engine.name === 'postgres') {
    applyCacheNotes(deps.bus, deps.serverId, {
      permissions: () => deps.permissions.invalidate(),
      settings: () => services.instance.forgetSettings(),
      user: (userId) => deps.sessions.forgetUser(userId),
      sessionsEnded: (ids) => deps.sessions.forgetSessions(ids),
      submission: (n) => {
        services.participant.submissionChanged(n.activityId, n.userId);
        void services.ranking.submissionChanged(n.activityId, n.userId, n.seriesProblemId).catch((err: unknown) => deps.log.warn({ err }, 'ranking update from another server failed'));
      },
      clicsEvents: (activityId) => services.clicsFeed.feeds.appended(activityId),
    });
  }
  return { workers, cluster };
}

/**
 * The one shutdown sequence, for a server that failed to listen as for one that closes: workers
 * stop, long polls and sockets end, requests still running get a grace period, then the database
 * closes and the data directory is let go.
 */
async function shutdown(parts: {
  deps: Deps;
  workers: Workers;
  cluster?: ClusterNode;
  services: Services;
  hub: EventHub;
  server: Server;
  /** With built-in TLS, the plain listener on 127.0.0.1 for the local runner. */
  loopback?: Server;
  dbh: { close(): Promise<void> };
  lock: { release(): void };
  control?: { close(): Promise<void> };
  log: Logger;
  closeLog(): Promise<void>;
}) {
  // the workers stop, and on PostgreSQL another server takes the lead
  await parts.cluster?.close();
  for (const w of Object.values(parts.workers)) w.stop();
  // long polls answer 204 now rather than wait out their time on a closing server
  parts.services.judging.close();
  // the scoreboards' feeds end, so that their connections do not hold the server open
  parts.services.scoreboards.close();
  parts.services.clicsFeed.feeds.close();
  // a printout being printed finishes and is recorded before the database closes
  await Promise.all(parts.services.printouts.printing);
  await parts.deps.offloop.close();
  await parts.hub.close();
  await parts.control?.close();
  const close = (server: Server) =>
    new Promise<void>((r) => {
      server.close(() => r());
      server.closeIdleConnections();
      // requests still running after a grace period are cut, so shutdown always finishes
      setTimeout(() => server.closeAllConnections(), 5000).unref();
    });
  await Promise.all([close(parts.server), ...(parts.loopback ? [close(parts.loopback)] : [])]);
  // the requests are over: what they posted is sent (or logged as not sent) before the mailer closes
  await parts.deps.outgoing.close();
  parts.deps.mail.close();
  await parts.dbh.close();
  parts.lock.release();
  parts.log.info('judge stopped');
  parts.log.flush?.();
  await parts.closeLog();
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolveListen());
  });
}

/** Composes config → database → services → Koa app → HTTP server → socket hub → workers, and listens. */
export async function startApp(opts: AppOptions): Promise<JudgeApp> {
  const { dataDir, config } = opts;
  // a certificate that cannot serve is refused before the data directory is touched
  const tls = loadTls(config);
  const { lock, paths, log, closeLog, dbh } = await openDataDir(opts);
  let hub: EventHub | undefined;
  // several servers on one PostgreSQL count limits and sign-in budgets together (http/limits.ts)
  const limits = dbh.engine.name === 'postgres' ? await postgresLimits(dbh.engine.pool) : memoryLimits;
  const deps = createDeps(opts, dbh, log, limits, (id) => hub?.connections(id) ?? 0);
  const services = createServices(deps, new BlobStore(paths.files, paths.uploads));
  // the stored maintenance level holds from the first request on
  await services.instance.maintenance.load().catch(async (e: unknown) => {
    await dbh.close();
    lock.release();
    void closeLog();
    throw e;
  });
  const api = createApi(deps, services);
  const handler = createHandler(deps, api, services);
  const server: Server = tls ? createHttpsServer(tls, handler) : createServer(handler);
  const maintenance = services.instance.maintenance;
  hub = new EventHub(deps, {
    ...config.socket,
    publicUrl: config.publicUrl,
    trustProxy: config.trustProxy,
    admits: (user) => maintenance.level !== 'closed' || user.isAdministrator(),
    viewers: (activityId) => activityViewers(deps, activityId),
  });
  hub.attach(server);
  const { workers, cluster } = await startWorkers(deps, services, paths, dbh.engine);
  const parts: Parameters<typeof shutdown>[0] = { deps, workers, cluster, services, hub, server, dbh, lock, log, closeLog };
  await listen(server, config.port, config.host).catch(async (e: unknown) => {
    await shutdown(parts);
    throw e;
  });
  if (tls) {
    parts.loopback = createServer(handler);
    await listen(parts.loopback, 0, '127.0.0.1').catch(async (e: unknown) => {
      await shutdown(parts);
      throw e;
    });
  }
  // judge backup, doctor and reset-password reach the database through the server while it runs
  parts.control = await startControlSocket(deps, paths.uploads);
  // the first ranking request of a running contest should not pay for loading its submissions
  setImmediate(async () => {
    try {
      await services.ranking.warm();
    } catch (e) {
      log.error({ err: e }, 'warming the rankings failed');
    }
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  log.info({ port, host: config.host, dataDir, filesDir: paths.files, database: dbh.shown, https: !!tls }, 'judge listening');
  let closing: Promise<void> | undefined;
  const url = `${tls ? 'https' : 'http'}://${host}:${port}`;
  return {
    ...workers,
    server,
    url,
    localUrl: parts.loopback ? `http://127.0.0.1:${(parts.loopback.address() as AddressInfo).port}` : url,
    port,
    database: dbh.syncConnection ? '' : dbh.shown,
    deps,
    hub,
    operations: api.boundIds,
    services,
    close: () => (closing ??= shutdown(parts)),
  };
}
