/**
 * The systemd unit `judge-runner install-service` writes: `judge-runner start` run by this Node
 * from this install, restarted when it fails, stopped the way the runner expects to be stopped.
 */
import { environmentLines, unitWord } from '@judge/problem-package';

export const DEFAULT_UNIT_PATH = '/etc/systemd/system/judge-runner.service';
/** Beyond the grace the runner gives held jobs, time to give back what is left and close the sandbox. */
const STOP_MARGIN_SECONDS = 30;

export interface UnitOptions {
  /** Absolute path of the Node that runs the runner. */
  node: string;
  /** Absolute path of the runner's dist/main.js. */
  main: string;
  configDir: string;
  user: string;
  /** The judge, when it overrides the one registered with. */
  server?: string;
  uidBase?: number;
  slots?: number | 'auto';
  /** Seconds held jobs may go on after SIGTERM (`start --grace`). */
  grace: number;
  /** Variables the runner reads that were set when the unit was written (JUDGE_LANGUAGES). */
  environment: Record<string, string>;
}

/** The `start` command line of the unit. */
export function startArgs(o: UnitOptions): string[] {
  return [
    o.node,
    o.main,
    'start',
    '--config-dir',
    o.configDir,
    ...(o.server ? ['--server', o.server] : []),
    ...(o.uidBase !== undefined ? ['--uid-base', String(o.uidBase)] : []),
    ...(o.slots !== undefined ? ['--slots', String(o.slots)] : []),
    '--grace',
    String(o.grace),
  ];
}

export function renderUnit(o: UnitOptions): string {
  const env = environmentLines(o.environment);
  return [
    '# Written by `judge-runner install-service`; run it again (with --force) to change it.',
    '[Unit]',
    'Description=judge-runner: judges submissions in a sandbox for the judge it registered with',
    'Wants=network-online.target',
    'After=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    `User=${o.user}`,
    `ExecStart=${startArgs(o).map(unitWord).join(' ')}`,
    ...env,
    'Restart=on-failure',
    'RestartSec=5',
    // SIGTERM to the runner alone: it stops claiming, lets held jobs finish for its grace and gives
    // back the rest. Its sandboxed programs are its own to end; systemd kills leftovers afterwards.
    'KillSignal=SIGTERM',
    'KillMode=mixed',
    `TimeoutStopSec=${o.grace + STOP_MARGIN_SECONDS}`,
    // the sandbox limits each judged program with cgroups made under the service's own
    'Delegate=yes',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ].join('\n');
}

export { InstallServiceError, unitName, writeUnit } from '@judge/problem-package';
