/**
 * `judge install-service`: makes this judge a systemd service, so that a weekly course's server
 * is there after logouts and reboots. It writes the unit and prints the systemctl line; it runs
 * nothing itself. The unit's words and the refusal to replace another unit are shared with
 * `judge-runner install-service` (packages/problem-package/src/systemd-unit.ts).
 */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkUserName, enableLine, environmentLines, httpUrl, InstallServiceError, unitWord, wholeNumber, writeUnit } from '@judge/problem-package';
import { isInitialised } from './datadir.js';

export const DEFAULT_UNIT_PATH = '/etc/systemd/system/judge.service';
/** `up`'s runner gives held jobs 30 s after SIGTERM and the server cuts requests after 5 s; then the margin. */
const STOP_SECONDS = { up: 90, serve: 30 };

interface InstallOptions {
  dataDir: string;
  user: string;
  output: string;
  runner: boolean;
  port?: number;
  host?: string;
  publicUrl?: string;
  tlsCert?: string;
  tlsKey?: string;
  runnerUidBase?: number;
  force?: boolean;
  json?: boolean;
}

export interface ServerUnitOptions {
  /** Absolute path of the Node that runs the judge. */
  node: string;
  /** Absolute path of the server's dist/main.js. */
  main: string;
  /** `up`: the server and a local runner; `serve`: the server alone. */
  command: 'up' | 'serve';
  dataDir: string;
  user: string;
  /** Flags after the data directory, as given (files absolute). */
  flags: string[];
  environment: Record<string, string>;
}

export function renderServerUnit(o: ServerUnitOptions): string {
  const exec = [o.node, o.main, o.command, '--data-dir', o.dataDir, ...o.flags];
  return [
    '# Written by `judge install-service`; run it again (with --force) to change it.',
    '[Unit]',
    `Description=judge: the online judge's server${o.command === 'up' ? ' and its local runner' : ''} on ${o.dataDir}`,
    'Wants=network-online.target',
    'After=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `User=${o.user}`,
    `ExecStart=${exec.map(unitWord).join(' ')}`,
    ...environmentLines(o.environment),
    'Restart=on-failure',
    'RestartSec=5',
    // SIGTERM to the judge alone: it stops its runner politely (held jobs finish or go back) and
    // then closes; systemd ends what is left afterwards
    'KillSignal=SIGTERM',
    'KillMode=mixed',
    `TimeoutStopSec=${STOP_SECONDS[o.command]}`,
    // the local runner limits each judged program with cgroups made under the service's own
    ...(o.command === 'up' ? ['Delegate=yes'] : []),
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}

function passedFlags(o: InstallOptions): string[] {
  return [
    ...(o.port !== undefined ? ['--port', String(o.port)] : []),
    ...(o.host ? ['--host', o.host] : []),
    ...(o.publicUrl ? ['--public-url', o.publicUrl] : []),
    ...(o.tlsCert ? ['--tls-cert', resolve(o.tlsCert)] : []),
    ...(o.tlsKey ? ['--tls-key', resolve(o.tlsKey)] : []),
    ...(o.runner && o.runnerUidBase !== undefined ? ['--runner-uid-base', String(o.runnerUidBase)] : []),
    // the service's output goes to the journal, and DATA_DIR/logs/judge.log has it all
    '--log-format',
    'json',
  ];
}

function install(o: InstallOptions): void {
  const dataDir = resolve(o.dataDir);
  // `up` on a new data directory would print the admin password into the journal
  if (!isInitialised(dataDir)) throw new InstallServiceError(`${dataDir} holds no judge database: run \`judge init --data-dir ${dataDir}\` first`);
  checkUserName(o.user);
  if (!!o.tlsCert !== !!o.tlsKey) throw new InstallServiceError('give both --tls-cert and --tls-key, or neither');
  const command = o.runner ? 'up' : 'serve';
  const environment: Record<string, string> = {};
  if (process.env.JUDGE_LANGUAGES) environment.JUDGE_LANGUAGES = resolve(process.env.JUDGE_LANGUAGES);
  const unit = renderServerUnit({ node: process.execPath, main: fileURLToPath(new URL('./main.js', import.meta.url)), command, dataDir, user: o.user, flags: passedFlags(o), environment });
  const path = resolve(o.output);
  const outcome = writeUnit(path, unit, !!o.force);
  const enable = enableLine(path);
  if (o.json) return console.log(JSON.stringify({ path, outcome, dataDir, command, enable }, null, 2));
  console.log(`${outcome === 'unchanged' ? 'Unchanged' : outcome === 'replaced' ? 'Replaced' : 'Wrote'} ${path}: judge ${command} on ${dataDir}, as ${o.user}.`);
  console.log('Start it now and at every boot with:');
  console.log(`  ${enable}`);
  console.log(`Its log: journalctl -u ${enable.split(' ').pop()} and ${dataDir}/logs/judge.log`);
}

export function registerInstallServiceCommand(program: Command): void {
  program
    .command('install-service')
    .description('Write a systemd unit that runs `judge up` (or `judge serve` with --no-runner) on this data directory with this Node and this install, from boot on, restarted when it fails; prints the systemctl line and runs nothing')
    .option('--data-dir <dir>', 'the data directory (initialised: `judge init` first)', process.env.JUDGE_DATA_DIR ?? './data')
    .option('--user <user>', 'the account it runs as (root: each sandbox slot of the local runner gets a uid of its own)', 'root')
    .option('--output <path>', 'where the unit goes', DEFAULT_UNIT_PATH)
    .option('--no-runner', 'run `judge serve`: the server alone, runners elsewhere')
    .option('--port <port>', 'passed on: TCP port', wholeNumber(1, 65535, 'a port'))
    .option('--host <host>', 'passed on: address to listen on (0.0.0.0 for every interface)')
    .option('--public-url <url>', 'passed on: the URL browsers use, e.g. https://judge.example.org', httpUrl)
    .option('--tls-cert <file>', 'passed on: serve HTTPS with this PEM certificate (made absolute)')
    .option('--tls-key <file>', "passed on: the certificate's PEM private key (made absolute)")
    .option('--runner-uid-base <uid>', "passed on to up: the local runner's first sandbox uid", wholeNumber(1000, 65000, 'a uid'))
    .option('--force', 'replace a different unit already at the path')
    .option('--json', 'print JSON')
    .addHelpText('after', '\nSettings in DATA_DIR/judge.json apply as for any start; JUDGE_* variables of this shell are not copied (JUDGE_LANGUAGES alone is).')
    .action((o: InstallOptions) => {
      try {
        install(o);
      } catch (e) {
        if (!(e instanceof InstallServiceError)) throw e;
        console.error(`judge: ${e.message}`);
        process.exitCode = 1;
      }
    });
}
