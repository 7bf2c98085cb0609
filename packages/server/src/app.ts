import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import pino, { type Logger } from 'pino';
import { PasswordHasher } from './auth/passwords.js';
import { PermissionResolver } from './auth/permissions.js';
import { SessionStore } from './auth/sessions.js';
import type { Config } from './config.js';
import { openDatabase } from './db/database.js';
import { Transactor } from './db/transactor.js';
import { dataPaths, ensureDataDirs, isInitialised, lockDataDir } from './datadir.js';
import { EventBus } from './events/bus.js';
import { EventHub } from './events/hub.js';
import { Api } from './http/api.js';
import type { RequestState } from './http/context.js';
import { authenticate, edge, rateLimit } from './http/middleware.js';
import { AccessService } from './modules/access/service.js';
import { accessRoutes } from './modules/access/routes.js';
import { ActivitiesService } from './modules/activities/service.js';
import { activitiesRoutes } from './modules/activities/routes.js';
import { AccountService } from './modules/account/service.js';
import { accountRoutes } from './modules/account/routes.js';
import { FilesService } from './modules/files/service.js';
import { filesRoutes } from './modules/files/routes.js';
import { BlobStore } from './modules/files/store.js';
import { IdentityService } from './modules/identity/service.js';
import { identityRoutes } from './modules/identity/routes.js';
import { InstanceService } from './modules/instance/service.js';
import { ProblemsService } from './modules/problems/service.js';
import { problemsRoutes } from './modules/problems/routes.js';
import { instanceRoutes } from './modules/instance/routes.js';
import { UsersService } from './modules/users/service.js';
import { usersRoutes } from './modules/users/routes.js';
import type { Deps } from './services.js';
import { systemClock, type Clock } from './util.js';
import { RetentionWorker } from './workers/retention.js';
import { SeriesScheduler } from './workers/series-scheduler.js';
import { SeriesService } from './modules/series/service.js';
import { seriesRoutes } from './modules/series/routes.js';
import { ParticipantService } from './modules/participant/service.js';
import { participantRoutes } from './modules/participant/routes.js';
import { RankingService } from './modules/ranking/service.js';
import { rankingRoutes } from './modules/ranking/routes.js';
import { RankingAnnouncer } from './workers/ranking-announcer.js';
import { LeaseReaper } from './workers/lease-reaper.js';
import { SubmissionOutcome } from './modules/submissions/outcome.js';
import { SubmissionsService } from './modules/submissions/service.js';
import { submissionsRoutes } from './modules/submissions/routes.js';
import { JobsService } from './modules/runners/jobs.js';
import { RunnersService } from './modules/runners/service.js';
import { runnerRoutes } from './modules/runners/routes.js';
import { TrialsService } from './modules/trials/service.js';
import { clientAddress } from './http/context.js';

export interface AppOptions {
  dataDir: string;
  config: Config;
  clock?: Clock;
  logger?: Logger;
}

export interface JudgeApp {
  server: Server;
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  deps: Deps;
  hub: EventHub;
  retention: RetentionWorker;
  // content worker handles
  scheduler: SeriesScheduler;
  rankingAnnouncer: RankingAnnouncer;
  reaper: LeaseReaper;
  /** Ids of the contract operations this server serves. */
  operations: ReadonlySet<string>;
  services: Services;
  close(): Promise<void>;
}

export class NotInitialised extends Error {}

/** Every service of the server, built once from the shared dependencies. */
function createServices(deps: Deps, blobs: BlobStore) {
  const instance = new InstanceService(deps);
  const files = new FilesService(deps, blobs);
  const ranking = new RankingService(deps);
  const outcome = new SubmissionOutcome(deps, ranking);
  const jobs = new JobsService(deps, outcome);
  const trials = new TrialsService(deps, files);
  return {
    instance,
    identity: new IdentityService(deps, instance),
    users: new UsersService(deps),
    access: new AccessService(deps),
    account: new AccountService(deps),
    files,
    // content services
    participant: new ParticipantService(deps, files),
    ranking,
    // judging services
    submissions: new SubmissionsService(deps, files, outcome, jobs),
    jobs,
    trials,
    runners: new RunnersService(deps, jobs, trials),
    series: new SeriesService(deps),
    problems: new ProblemsService(deps, files),
    activities: new ActivitiesService(deps, files),
  };
}

export type Services = ReturnType<typeof createServices>;

export function packageVersion(): string {
  const pkg = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

/** Composes config → database → services → Koa app → HTTP server → socket hub → workers, and listens. */
export async function startApp(opts: AppOptions): Promise<JudgeApp> {
  const { dataDir, config } = opts;
  if (!isInitialised(dataDir)) throw new NotInitialised(`${dataDir} holds no judge database; run \`judge init --data-dir ${dataDir}\` first`);
  ensureDataDirs(dataDir);
  const lock = lockDataDir(dataDir);
  const paths = dataPaths(dataDir);
  const log =
    opts.logger ??
    pino(
      { level: config.logLevel, redact: { paths: ['*.password', '*.token', '*.authorization', '*.cookie'], censor: '[secret]' } },
      pino.destination({ dest: join(paths.logs, 'judge.log'), sync: false, mkdir: true }),
    );
  let dbh;
  try {
    dbh = openDatabase(paths.db);
  } catch (e) {
    lock.release();
    throw e;
  }
  const clock = opts.clock ?? systemClock;
  const bus = new EventBus();
  const permissions = new PermissionResolver(dbh.sqlite);
  const sessions = new SessionStore(dbh.sqlite, config.auth);
  const hasher = new PasswordHasher({ memoryKiB: config.auth.argon2MemoryKib, iterations: config.auth.argon2Iterations });
  let hub: EventHub | undefined;
  const deps: Deps = {
    config,
    dataDir,
    db: dbh.db,
    sqlite: dbh.sqlite,
    tx: new Transactor(dbh.sqlite, bus, permissions),
    clock,
    log,
    bus,
    permissions,
    sessions,
    hasher,
    connections: (id) => hub?.connections(id) ?? 0,
  };

  const services = createServices(deps, new BlobStore(paths.files, paths.uploads));

  const api = new Api({
    jsonBodyBytes: config.limits.jsonBodyBytes,
    publicUrl: config.publicUrl,
    onSignedIn: (actor, path) => sessions.touch(actor, path.replace(/^\/api\/v1/, ''), clock.now()),
    authenticateRunner: (header, ctx) => services.runners.authenticate(header, clientAddress(ctx)),
  });
  instanceRoutes(api, services.instance, packageVersion());
  identityRoutes(api, services.identity, config.auth);
  accessRoutes(api, services.access);
  usersRoutes(api, services.users);
  accountRoutes(api, services.account);
  filesRoutes(api, services.files, config.limits.uploadBytes);
  // content routes
  participantRoutes(api, services.participant);
  rankingRoutes(api, services.ranking);
  seriesRoutes(api, services.series);
  problemsRoutes(api, services.problems);
  activitiesRoutes(api, services.activities);
  // judging routes
  submissionsRoutes(api, services.submissions, services.files.blobs.incomingDir);
  runnerRoutes(api, services.runners, services.jobs, services.trials, services.files, config.limits.uploadBytes);

  const koa = new Koa<RequestState>({ proxy: config.trustProxy });
  koa.silent = true;
  koa.use(edge(log, config.publicUrl.startsWith('https:')));
  koa.use(authenticate(sessions, clock));
  koa.use(rateLimit(config.limits.requestsPerMinute));
  koa.use(api.routes());
  koa.use(api.allowedMethods());

  const server = createServer(koa.callback());
  hub = new EventHub({ sessions, permissions, clock, log, bus }, { ...config.socket, publicUrl: config.publicUrl, trustProxy: config.trustProxy });
  hub.attach(server);
  const retention = new RetentionWorker(dbh.sqlite, paths.uploads, clock, log);
  retention.start();
  // content workers
  const scheduler = new SeriesScheduler(deps);
  scheduler.start();
  const rankingAnnouncer = new RankingAnnouncer(deps);
  rankingAnnouncer.start();
  // judging workers
  const reaper = new LeaseReaper(deps, services.jobs, services.trials);
  reaper.start();

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolveListen());
  }).catch((e) => {
    retention.stop();
    scheduler.stop();
    rankingAnnouncer.stop();
    reaper.stop();
    void hub?.close();
    dbh.close();
    lock.release();
    throw e;
  });
  // the first ranking request of a running contest should not pay for loading its submissions
  setImmediate(() => {
    try {
      services.ranking.warm();
    } catch (e) {
      log.error({ err: e }, 'warming the rankings failed');
    }
  });
  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  log.info({ port, host: config.host, dataDir }, 'judge listening');

  let closing: Promise<void> | undefined;
  const h = hub;
  return {
    server,
    url: `http://${host}:${port}`,
    port,
    deps,
    hub: h,
    retention,
    scheduler,
    rankingAnnouncer,
    reaper,
    operations: api.boundIds,
    services,
    close: () =>
      (closing ??= (async () => {
        retention.stop();
        // content workers stop
        scheduler.stop();
        rankingAnnouncer.stop();
        reaper.stop();
        // long polls answer 204 now rather than wait out their time on a closing server
        services.jobs.signal.close();
        services.trials.signal.close();
        await h.close();
        await new Promise<void>((r) => {
          server.close(() => r());
          server.closeIdleConnections();
          // requests still running after a grace period are cut, so shutdown always finishes
          setTimeout(() => server.closeAllConnections(), 5000).unref();
        });
        dbh.close();
        lock.release();
        log.info('judge stopped');
        log.flush?.();
      })()),
  };
}
