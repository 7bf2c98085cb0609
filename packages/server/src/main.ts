import { Command, Option } from 'commander';
import { wholeNumber } from '@judge/problem-package';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { packageVersion } from './app.js';
import { ConfigError, loadConfig, settingsTable, type Config, type ConfigOverrides } from './config.js';
import { initDataDir } from './init.js';
import { registerInstallServiceCommand } from './install-service-command.js';
import { registerOpsCommands } from './ops/commands.js';
import { LOG_FORMATS, runServer, type LogFormat } from './serve-command.js';
import { startupFailure } from './startup-errors.js';
import { generatePassword } from './util.js';

const MIN_PASSWORD = 10;
const port = wholeNumber(0, 65535, 'a port');
const uidBase = wholeNumber(1000, 65000, 'a uid');

/** The options `serve` and `up` share: where the data is, where to listen, the public URL and built-in HTTPS. */
function serverCommand(parent: Command, name: string, description: string): Command {
  return parent
    .command(name)
    .description(description)
    .option('--data-dir <dir>', 'data directory', process.env.JUDGE_DATA_DIR ?? './data')
    .option('--port <port>', 'TCP port (0 picks a free one)', port)
    .option('--host <host>', 'address to listen on')
    .option('--public-url <url>', 'the URL browsers use, e.g. https://judge.example.org')
    // built-in HTTPS: settings tls.certFile and tls.keyFile
    .option('--tls-cert <file>', 'serve HTTPS (and WSS) with this PEM certificate (chain); setting tls.certFile')
    .option('--tls-key <file>', "the certificate's PEM private key; setting tls.keyFile")
    .option(...databaseOption)
    .option(...filesDirOption);
}

/** `--files-dir`: setting `filesDir`, JUDGE_FILES_DIR. */
const filesDirOption = [
  '--files-dir <dir>',
  'keep the stored files there instead of DATA_DIR/files (a directory every server of a cluster mounts); setting filesDir',
] as const;

/** `--database`: setting `database`, JUDGE_DATABASE. */
const databaseOption = [
  '--database <url>',
  'keep the data in PostgreSQL (postgres://user:password@host/db, shared by several servers) instead of DATA_DIR/judge.db; setting database',
] as const;

const DATABASE_HELP = [
  '',
  'On PostgreSQL (--database postgres://…) the data directory keeps keys and logs, and the stored files',
  'unless --files-dir names a directory every server shares (docs/storage.md, "Files"). `judge backup`',
  'and `restore` take a pg_dump snapshot with the files it references; `doctor` and `reset-password`',
  'work on the SQLite file only. The URL\'s password is never logged or shown: prefer JUDGE_DATABASE',
  'or judge.json to the command line, where other users of the machine can read it.',
].join('\n');

/** What the options of serverCommand set, over judge.json and the environment. */
interface ServerFlags {
  database?: string;
  filesDir?: string;
  port?: number;
  host?: string;
  publicUrl?: string;
  tlsCert?: string;
  tlsKey?: string;
}

/** The settings the flags give; their files relative to where the command was typed (in judge.json they are relative to the data directory). */
function flagOverrides(o: ServerFlags): ConfigOverrides {
  const tls = o.tlsCert || o.tlsKey ? { tls: { ...(o.tlsCert ? { certFile: resolve(o.tlsCert) } : {}), ...(o.tlsKey ? { keyFile: resolve(o.tlsKey) } : {}) } } : {};
  return { database: o.database, filesDir: o.filesDir === undefined ? undefined : o.filesDir && resolve(o.filesDir), port: o.port, host: o.host, publicUrl: o.publicUrl, ...tls };
}

function logFormatOption(): Option {
  return new Option('--log-format <format>', 'summary: a short account for people on stdout; json: the JSON log lines on stdout (both: also in DATA_DIR/logs/judge.log)')
    .choices([...LOG_FORMATS])
    .default('summary');
}

function configHelp(): string {
  const rows = settingsTable();
  const width = Math.max(...rows.map((r) => r.key.length));
  return [
    '',
    'Configuration, later sources winning: config/server.json (defaults), DATA_DIR/judge.json,',
    'JUDGE_* environment variables, then command-line flags. Settings:',
    ...rows.map((r) => `  ${r.key.padEnd(width)}  ${r.env}  (default ${JSON.stringify(r.value)})`),
    '',
    'JUDGE_DATA_DIR sets --data-dir; JUDGE_ADMIN_PASSWORD gives `init` the admin password.',
  ].join('\n');
}

/** The admin password: a file, the environment, a prompt on a terminal, or generated and shown once. */
async function adminPassword(file: string | undefined): Promise<{ value: string; generated: boolean }> {
  let value: string | undefined;
  if (file) value = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  else if (process.env.JUDGE_ADMIN_PASSWORD) value = process.env.JUDGE_ADMIN_PASSWORD;
  else if (process.stdin.isTTY && process.stdout.isTTY) {
    const { password } = await import('@inquirer/prompts');
    const first = await password({ message: 'Password for the admin account:', mask: '*', validate: (v) => v.length >= MIN_PASSWORD || `at least ${MIN_PASSWORD} characters` });
    const again = await password({ message: 'The same password again:', mask: '*' });
    if (first !== again) throw new ConfigError('the two passwords differ; nothing was created');
    value = first;
  }
  if (value === undefined) return { value: generatePassword(20), generated: true };
  if (value.length < MIN_PASSWORD || value.length > 256) throw new ConfigError(`the admin password must have ${MIN_PASSWORD} to 256 characters`);
  return { value, generated: false };
}

/** Creates the data directory if it is new (`init`, `up`): whether it did, and the password it generated, to be shown once. */
async function initialise(dir: string, config: Config, passwordFile: string | undefined): Promise<{ created: boolean; shown?: string }> {
  let shown: string | undefined;
  const r = await initDataDir(dir, config, async () => {
    const p = await adminPassword(passwordFile);
    if (p.generated) shown = p.value;
    return p.value;
  });
  return { created: r.created, ...(shown ? { shown } : {}) };
}

const generatedPasswordNotice = (password: string): string => `The admin password is printed this once; keep it safe:\n\n  admin / ${password}\n`;

const program = new Command('judge')
  .description('The judge appliance: the HTTP API, the event socket, storage and background work')
  .version(packageVersion());

program
  .command('init')
  .description('Create the data directory, its database and the admin account (never overwrites anything)')
  .option('--data-dir <dir>', 'data directory', process.env.JUDGE_DATA_DIR ?? './data')
  .option('--admin-password-file <file>', 'read the admin password from this file')
  .option(...databaseOption)
  .option(...filesDirOption)
  .addHelpText('after', configHelp() + DATABASE_HELP)
  .action(async (o: { dataDir: string; adminPasswordFile?: string; database?: string; filesDir?: string }) => {
    const dir = resolve(o.dataDir);
    const config = loadConfig(dir, flagOverrides({ database: o.database, filesDir: o.filesDir }));
    const { created, shown } = await initialise(dir, config, o.adminPasswordFile);
    if (!created) {
      console.log(`${dir} is already initialised; nothing was changed.`);
      return;
    }
    console.log(`Initialised ${dir}.`);
    if (shown) console.log(generatedPasswordNotice(shown));
    else console.log('Sign in as admin with the password you gave.');
  });

serverCommand(program, 'serve', 'Serve the API on an initialised data directory')
  .addHelpText('after', configHelp() + DATABASE_HELP)
  .addOption(logFormatOption())
  .action(async (o: ServerFlags & { dataDir: string; logFormat: LogFormat }) => {
    const dir = resolve(o.dataDir);
    await runServer({ dataDir: dir, config: loadConfig(dir, flagOverrides(o)), logFormat: o.logFormat });
  });

serverCommand(program, 'up', "A small school's one command: initialise the data directory if needed, serve, and judge with a local runner when this machine can sandbox")
  .option('--admin-password-file <file>', 'the admin password, when the data directory is new')
  .option('--no-runner', 'serve without starting a local runner')
  .option('--runner-uid-base <uid>', 'the first sandbox uid the local runner tries (default 60000); when another runner holds uids there, judge up takes the next free range and says which', uidBase)
  .addHelpText('after', configHelp() + DATABASE_HELP)
  .addOption(logFormatOption())
  .action(async (o: ServerFlags & { dataDir: string; adminPasswordFile?: string; runner: boolean; runnerUidBase?: number; logFormat: LogFormat }) => {
    const dir = resolve(o.dataDir);
    const config = loadConfig(dir, flagOverrides(o));
    const { created, shown } = await initialise(dir, config, o.adminPasswordFile);
    if (created) {
      // under --log-format json stdout holds JSON lines only: the password goes to stderr, never to the log
      const say = o.logFormat === 'json' ? console.error : console.log;
      say(`Initialised ${dir}.`);
      if (shown) say(generatedPasswordNotice(shown));
    }
    await runServer({ dataDir: dir, config, logFormat: o.logFormat, localRunner: { enabled: o.runner, ...(o.runnerUidBase ? { uidBase: o.runnerUidBase } : {}) } });
  });

registerInstallServiceCommand(program);
registerOpsCommands(program, packageVersion());

program.parseAsync().catch((e: unknown) => {
  const failure = startupFailure(e);
  if (failure) {
    console.error(`judge: ${failure}`);
    process.exit(2);
  }
  if ((e as { name?: string }).name === 'ExitPromptError') process.exit(130);
  console.error(`judge: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
