import type { LocalRunnerHealth } from '@judge/contract';
import { packageVersion, startApp, type JudgeApp } from './app.js';
import { browserHint } from './browser-urls.js';
import type { Config } from './config.js';
import { noRunnerWarning, startConsoleSummary } from './console-summary.js';
import { startLocalRunner, type LocalRunner } from './local-runner.js';
import { readRunnerCensus } from './modules/runners/index.js';

/**
 * `judge serve` and `judge up` once the data directory is ready: the server, its log in
 * DATA_DIR/logs/judge.log, what the terminal shows, the local runner for `up`, and a polite stop.
 */
export type LogFormat = 'summary' | 'json';

export const LOG_FORMATS: readonly LogFormat[] = ['summary', 'json'];

export interface ServeRun {
  dataDir: string;
  config: Config;
  /** summary: the human summary on stdout; json: the log's JSON lines on stdout (and in the file). */
  logFormat: LogFormat;
  /** `judge up`: start the local runner (false: --no-runner); absent: `judge serve`. */
  localRunner?: { enabled: boolean; uidBase?: number };
}

/** A line for the terminal: printed under the summary, a log record under json (stdout holds JSON only). */
function writer(app: JudgeApp, format: LogFormat) {
  return (line: string, level: 'info' | 'warn' = 'info') => {
    if (format === 'json') app.deps.log[level]({ console: true }, line);
    else process.stdout.write(`${line}\n`);
  };
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
const moreVerbose = (a: string, b: string) => (LEVELS.indexOf(a) < LEVELS.indexOf(b) ? a : b);

function startRunner(app: JudgeApp, run: ServeRun, write: ReturnType<typeof writer>): { runner?: LocalRunner; state: () => LocalRunnerHealth } {
  const since = new Date().toISOString();
  if (!run.localRunner?.enabled) return { state: () => ({ state: 'notStarted', since, restarts: 0, reason: 'started with --no-runner' }) };
  // its lines reach the file at any level but silent, as they reached the terminal before the log
  // file took them: what the runner said before an exit is what an administrator looks for
  const log = app.deps.log.child({ source: 'local-runner' }, { level: run.config.logLevel === 'silent' ? 'silent' : moreVerbose(run.config.logLevel, 'info') });
  const runner = startLocalRunner({
    dataDir: run.dataDir,
    // with built-in TLS, the plain loopback listener: the certificate names the public host
    serverUrl: app.localUrl,
    languages: run.config.languages,
    ...(run.localRunner.uidBase ? { uidBase: run.localRunner.uidBase } : {}),
    runners: app.services.runners,
    // the runner's own lines are for the log; the terminal hears of its state from the summary
    log: (line) => log.info(line),
    notice: (line) => {
      log.warn(line);
      write(line, 'warn');
    },
  });
  return { runner, state: () => runner.supervisor.status() };
}

/**
 * On PostgreSQL, files kept in the data directory are this server's alone. One server on PostgreSQL
 * is a legitimate install, so it is said, not refused (docs/storage.md, "Files").
 */
export function localFilesNotice(database: string, filesDir: string, dataDir: string): string | undefined {
  if (!database || filesDir) return undefined;
  return `the stored files are in ${dataDir}/files, which only this server sees: another server on this database cannot read what is uploaded here. Set filesDir (--files-dir, JUDGE_FILES_DIR) to a directory every server mounts (docs/storage.md, "Files").`;
}

export async function runServer(run: ServeRun): Promise<void> {
  const { dataDir, config } = run;
  const app = await startApp({ dataDir, config, logToStdout: run.logFormat === 'json' });
  const write = writer(app, run.logFormat);
  write(`judge ${packageVersion()} serving ${app.url}/api/v1 from ${dataDir}${app.database ? `, database ${app.database}` : ''}`);
  write(browserHint({ host: config.host, port: app.port, publicUrl: config.publicUrl, https: app.url.startsWith('https:') }));
  write(`Logs: ${dataDir}/logs/judge.log`);
  const unshared = localFilesNotice(app.database, config.filesDir, dataDir);
  if (unshared) write(unshared, 'warn');
  const local = run.localRunner ? startRunner(app, run, write) : undefined;
  if (local) app.services.instance.watchLocalRunner(local.state);
  if (!local?.runner && (await app.deps.tx.read((q) => readRunnerCensus(q, Date.now()))).approved === 0) write(noRunnerWarning(app.url, 'none'), 'warn');
  const summary = startConsoleSummary({ app, write, ...(local?.runner ? { localRunner: local.state } : {}) });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.deps.log.info({ signal }, 'shutting down');
    summary.stop();
    void (local?.runner?.stop() ?? Promise.resolve()).then(() => app.close()).then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
