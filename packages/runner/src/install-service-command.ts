/**
 * `judge-runner install-service`: makes this runner a systemd service, so that a lab machine judges
 * from boot on and after a crash without anyone logged in.
 */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDir, loadConfig } from './config.js';
import { parseSlots } from './slots.js';
import { checkUserName, enableLine, httpOrigin, optionParser, wholeNumber } from '@judge/problem-package';
import { DEFAULT_UNIT_PATH, InstallServiceError, renderUnit, writeUnit, type UnitOptions } from './service-unit.js';

interface InstallOptions {
  server?: string;
  user: string;
  output: string;
  uidBase?: number;
  slots?: number | 'auto';
  grace: number;
  configDir?: string;
  force?: boolean;
  json?: boolean;
}

function install(o: InstallOptions): void {
  const dir = configDir(o.configDir);
  const cfg = loadConfig(dir);
  if (!cfg && !o.server) throw new InstallServiceError(`no runner configuration in ${dir}: run \`judge-runner register --server URL\` first (or give --config-dir)`);
  checkUserName(o.user);
  const environment: Record<string, string> = {};
  if (process.env.JUDGE_LANGUAGES) environment.JUDGE_LANGUAGES = resolve(process.env.JUDGE_LANGUAGES);
  const unit: UnitOptions = {
    node: process.execPath,
    main: fileURLToPath(new URL('./main.js', import.meta.url)),
    configDir: dir,
    user: o.user,
    grace: o.grace,
    environment,
    ...(o.server ? { server: o.server } : {}),
    ...(o.uidBase !== undefined ? { uidBase: o.uidBase } : {}),
    ...(o.slots !== undefined ? { slots: o.slots } : {}),
  };
  const path = resolve(o.output);
  const outcome = writeUnit(path, renderUnit(unit), !!o.force);
  const enable = enableLine(path);
  if (o.json) return console.log(JSON.stringify({ path, outcome, configDir: dir, server: o.server ?? cfg?.server, enable }, null, 2));
  console.log(`${outcome === 'unchanged' ? 'Unchanged' : outcome === 'replaced' ? 'Replaced' : 'Wrote'} ${path}: judge-runner start for ${o.server ?? cfg?.server}, as ${o.user}, configuration in ${dir}.`);
  console.log('Start it now and at every boot with:');
  console.log(`  ${enable}`);
}

export function registerInstallServiceCommand(program: Command): void {
  program
    .command('install-service')
    .description('Write a systemd unit that runs `judge-runner start` with this Node and this install, restarts it when it fails, and stops it gently; register first')
    .option('--server <url>', 'the judge, when not the one registered with', httpOrigin)
    .option('--user <user>', 'the account it runs as (root: each sandbox slot gets a uid of its own)', 'root')
    .option('--output <path>', 'where the unit goes', DEFAULT_UNIT_PATH)
    .option('--uid-base <uid>', 'passed to start: sandbox slot n runs as uid uid+n (default 60000)', wholeNumber(1000, 65000, 'a uid'))
    .option('--slots <n|auto>', 'passed to start: jobs judged at once (default auto)', optionParser(parseSlots))
    .option('--grace <seconds>', 'passed to start: how long held jobs may go on after SIGTERM; systemd waits 30 s more', wholeNumber(0, 3600, 'a whole number of seconds'), 30)
    .option('--config-dir <dir>', 'the directory `register` used (default ~/.config/judge-runner, or JUDGE_RUNNER_CONFIG_DIR)')
    .option('--force', 'replace a different unit already at the path')
    .option('--json', 'print JSON')
    .action((o: InstallOptions) => {
      try {
        install(o);
      } catch (e) {
        if (!(e instanceof InstallServiceError)) throw e;
        console.error(`judge-runner: ${e.message}`);
        process.exitCode = 1;
      }
    });
}
