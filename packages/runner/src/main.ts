#!/usr/bin/env node
import { parseSlots, planSlots } from './slots.js';
import { ApiProblem, RunnerClient, Unreachable, loadOrCreateRunnerKey } from '@judge/sdk';
import { httpOrigin, optionParser, wholeNumber } from '@judge/problem-package';
import { Command, InvalidArgumentError } from 'commander';
import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, PROBLEM_TYPES } from './agent.js';
import { checkMachine, type CheckReport } from './check.js';
import { cachePath, configDir, keyPath, loadConfig, saveConfig } from './config.js';
import { loadLanguages } from './languages.js';
import { registerLanguagesCommand } from './languages-command.js';
import { registerInstallServiceCommand } from './install-service-command.js';
import { CompileCache } from './compile/cache.js';
import { PackageCache } from './problem/cache.js';
import { claimUidRange, DEFAULT_UID_BASE, UidRangeInUse } from './sandbox/host-lock.js';
import { Sandbox } from './sandbox/sandbox.js';
import { sweepWorkRoots } from './sandbox/work-root.js';
import { StrayErrors } from './stray-errors.js';

class CliError extends Error {}

function version(): string {
  const pkg = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

const stamp = () => new Date().toISOString();
const log = (line: string) => console.log(`${stamp()} ${line}`);


function tagList(v: string): string[] {
  const tags = v.split(',').map((t) => t.trim()).filter(Boolean);
  for (const t of tags) if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(t)) throw new InvalidArgumentError(`not a tag: ${t} (letters, digits, _ . : -)`);
  return tags;
}

/**
 * The judgectl line that approves this runner. 16 hex digits (64 bits) of the fingerprint name it
 * alone: nobody makes a key that shares them. The name, when given, follows as a shell comment, so
 * the line can be pasted as it is.
 */
function approveCommand(fingerprint: string, name?: string): string {
  const label = name?.replace(/[\x00-\x1f\x7f]/g, ' ').trim();
  return `judgectl runners approve ${fingerprint.slice(0, 16)}${label ? `   # ${label}` : ''}`;
}

/**
 * The package cache: private to the runner's user (0700; what is below it is made 0700/0600 as the
 * caches start), since it holds secret test data. The sandbox never reads it: a validator runs
 * from a copy in a box of its judging (graders/validator-view.ts).
 */
function packageCacheDir(explicit: string | undefined, config: string): string {
  const dir = resolve(explicit ?? (process.getuid?.() === 0 ? '/var/cache/judge-runner' : cachePath(config)));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
}

/**
 * The sandbox of a runner that starts: its slot uids claimed for this process (as root, where
 * each slot has a uid of its own), and the work directories of runners that were killed removed.
 */
async function hostSandbox(opts: { slots: number; cpus: number[]; insecureNoCgroup: boolean; uidBase: number }, configDir: string): Promise<Sandbox> {
  if (process.geteuid?.() === 0) {
    try {
      await claimUidRange(opts.uidBase, opts.slots, configDir);
    } catch (e) {
      throw e instanceof UidRangeInUse ? new CliError(e.message) : e;
    }
  }
  const removed = await sweepWorkRoots();
  if (removed.length) log(`removed ${removed.length} work director${removed.length === 1 ? 'y' : 'ies'} left by runners that were killed: ${removed.join(', ')}`);
  return Sandbox.create(opts);
}

function describe(e: unknown): string {
  if (e instanceof ApiProblem) return `${e.detail || e.code} (${e.status} ${e.code})`;
  if (e instanceof Unreachable) return e.message;
  return (e as Error)?.message ?? String(e);
}

const program = new Command('judge-runner')
  .description('The judging agent: compiles and runs submissions in a sandbox and reports verdicts to a judge.')
  .version(version());

program
  .command('register')
  .description('Make this machine a runner: create its key (once), register it, and print the fingerprint and the command an administrator runs to approve it (none with an enrolment code)')
  .requiredOption('--server <url>', 'the judge, e.g. http://judge.lab:8080', httpOrigin)
  .option('--code <code>', 'an enrolment code from `judgectl runners add`: the runner is approved at once')
  .option('--name <name>', 'how administrators see this runner (default: the host name)')
  .option('--tags <a,b>', 'tags this runner offers (series may require tags)', tagList)
  .option('--config-dir <dir>', 'where the key and configuration live (default ~/.config/judge-runner, or JUDGE_RUNNER_CONFIG_DIR)')
  .option('--json', 'print JSON')
  .action(async (o: { server: string; code?: string; name?: string; tags?: string[]; configDir?: string; json?: boolean }) => {
    const dir = configDir(o.configDir);
    const key = loadOrCreateRunnerKey(keyPath(dir));
    const previous = loadConfig(dir);
    const asked = o.name ?? previous?.name ?? (await import('node:os')).hostname();
    const client = new RunnerClient({ baseUrl: o.server, key, userAgent: `judge-runner/${version()}` });
    const r = await client.register({
      name: asked,
      problemTypes: PROBLEM_TYPES,
      version: version(),
      tags: o.tags ?? previous?.tags ?? [],
      ...(o.code ? { enrolmentCode: o.code } : {}),
    });
    // an enrolment code may name and tag the runner: keep what the server says, so that `start` (which registers again) does not undo it
    const name = r.name ?? asked;
    const tags = r.tags ?? o.tags ?? previous?.tags ?? [];
    saveConfig(dir, { server: o.server, name, tags, runnerId: r.runnerId, fingerprint: r.fingerprint });
    const approve = r.state === 'pendingApproval' ? approveCommand(r.fingerprint, o.name) : undefined;
    if (o.json) return console.log(JSON.stringify({ ...r, name, tags, configDir: dir, ...(approve ? { approveCommand: approve } : {}) }, null, 2));
    console.log(`Registered with ${o.server} as "${name}" (runner ${r.runnerId}).`);
    console.log(`Fingerprint: ${r.fingerprint}`);
    if (r.state === 'approved') {
      // the server answers the name and tags only when the code approved it just now
      const byCode = o.code && r.name !== undefined;
      console.log(byCode ? 'Approved by the enrolment code: no approval is needed. Start it with `judge-runner start`.' : 'Approved: start it with `judge-runner start`.');
    } else if (approve) {
      console.log('Waiting for approval. An administrator compares the fingerprint above and runs:');
      console.log(`  ${approve}`);
      console.log('Then start it with `judge-runner start`.');
    } else console.log(`State: ${r.state}.`);
  });

program
  .command('start')
  .description('Judge: authenticate, claim jobs (long poll), judge them in the sandbox and report; SIGTERM finishes or gives back held jobs')
  .option('--config-dir <dir>', 'the directory `register` used')
  .option('--server <url>', 'override the server registered with', httpOrigin)
  .option('--slots <n|auto>', 'jobs judged at once, each in its own sandbox slot (auto: one per CPU this runner may use)', optionParser(parseSlots), 'auto' as number | 'auto')
  .option('--no-pin', 'do not pin each slot\'s programs to a CPU of its own (they are pinned when there are no more slots than CPUs)')
  .option('--insecure-no-cgroup', 'judge even without a writable cgroup (rlimits only: memory of process trees, process counts and leftover processes are not enforced)')
  .option('--languages <file>', 'the language table (default config/languages.json, or JUDGE_LANGUAGES)')
  .option('--grace <seconds>', 'on SIGTERM, how long held jobs may go on before they are given back', wholeNumber(0, 3600, 'a whole number of seconds'), 30)
  .option('--lease-seconds <n>', 'lease asked for each job, renewed every third of it (15..3600; default 120)', wholeNumber(15, 3600, 'a whole number of seconds'))
  .option('--uid-base <uid>', 'as root, sandbox slot n runs as uid/gid uid+n (default 60000); keep the range free of real accounts, and apart from other runners on this host (a runner refuses a range another one uses)', wholeNumber(1000, 65000, 'a uid'))
  .option('--cache-dir <dir>', 'where problem packages are kept by SHA-256, and in its compiled/ compiled submissions (a rejudge or identical resubmission compiles nothing) and precompiled C++ headers (default /var/cache/judge-runner as root, else <config-dir>/cache)')
  .action(async (o: { configDir?: string; server?: string; slots: number | 'auto'; pin: boolean; insecureNoCgroup?: boolean; languages?: string; grace: number; leaseSeconds?: number; cacheDir?: string; uidBase?: number }) => {
    const dir = configDir(o.configDir);
    const cfg = loadConfig(dir);
    if (!cfg && !o.server) throw new CliError(`no runner configuration in ${dir}: run \`judge-runner register --server URL\` first`);
    const server = o.server ?? cfg!.server;
    const key = loadOrCreateRunnerKey(keyPath(dir));
    const languages = loadLanguages(o.languages);
    const plan = planSlots(o.slots, o.pin);
    const sandbox = await hostSandbox({ slots: plan.slots, cpus: plan.cpus, insecureNoCgroup: !!o.insecureNoCgroup, uidBase: o.uidBase ?? DEFAULT_UID_BASE }, dir);
    log(`slots: ${plan.why}`);
    log(`sandbox: bubblewrap ${sandbox.bwrap.version}, ${sandbox.backend} (${sandbox.describeBackend()})`);
    for (const c of sandbox.caveats()) log(`caveat: ${c}`);
    const present = [...languages.languages.values()].filter((l) => l.present).map((l) => l.id);
    log(`languages: ${present.join(', ') || 'none'}`);
    const client = new RunnerClient({ baseUrl: server, key, userAgent: `judge-runner/${version()}` });
    try {
      // registering again refreshes the name, version and problem types the server knows
      const r = await client.register({ name: cfg?.name ?? 'runner', problemTypes: PROBLEM_TYPES, version: version(), tags: cfg?.tags ?? [] });
      if (r.state !== 'approved') throw new CliError(`the runner ${r.fingerprint.slice(0, 12)} is ${r.state === 'revoked' ? 'revoked' : 'waiting for approval'} on ${server}`);
      await client.authenticate();
    } catch (e) {
      await sandbox.close();
      throw e;
    }
    const cacheDir = packageCacheDir(o.cacheDir, dir);
    const cache = new PackageCache({ dir: cacheDir, fetch: (fileId) => client.download(fileId) });
    const compileCache = new CompileCache({ dir: join(cacheDir, 'compiled'), log });
    // from here on an error that escapes a judging fails that judging, not the runner (stray-errors.ts)
    const strays = new StrayErrors(log);
    strays.install();
    const agent = new Agent({ client, sandbox, languages, cache, compileCache, strays, slots: plan.slots, runnerVersion: version(), log, ...(o.leaseSeconds ? { leaseSeconds: o.leaseSeconds } : {}) });
    log(`judging for ${server} as ${client.fingerprint.slice(0, 12)} with ${plan.slots} slot${plan.slots === 1 ? '' : 's'}`);
    agent.start();

    let signals = 0;
    const shutdown = async (sig: string) => {
      signals++;
      if (signals > 1) {
        log(`${sig} again: giving back ${agent.holding} held job(s) now`);
        await agent.abandon();
        await sandbox.close();
        process.exit(1);
      }
      log(`${sig}: no new work; ${agent.holding} held job(s) get ${o.grace} s to finish`);
      agent.stop();
      // held work may finish; a long poll still waiting for work is simply dropped
      const deadline = Date.now() + o.grace * 1000;
      while (agent.holding > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const finished = agent.holding === 0;
      if (!finished) {
        log(`giving back ${agent.holding} held job(s)`);
        await agent.abandon();
      }
      await sandbox.close();
      log(`stopped: ${agent.stats.judged} judged, ${agent.stats.failed} failed, ${agent.stats.trials} trials${strays.count ? `; ${strays.count} error(s) escaped a judging (see BUG lines)` : ''}`);
      log(`compile cache: ${compileCache.stats.compiles} compiled, ${compileCache.stats.hits} taken from the cache`);
      process.exit(0);
    };
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
    process.on('SIGINT', () => void shutdown('SIGINT'));
    await agent.done();
    // every slot stopped by itself (the runner was revoked)
    await sandbox.close();
    process.exitCode = 1;
  });

program
  .command('check')
  .description('Check this machine: bubblewrap, the cgroup backend, each language compiles and runs, limits are enforced')
  .option('--insecure-no-cgroup', 'check the rlimits-only sandbox')
  .option('--languages <file>', 'the language table to check')
  .option('--only <ids>', 'check only these languages (comma-separated)')
  .option('--json', 'print the report as JSON')
  .action(async (o: { insecureNoCgroup?: boolean; languages?: string; only?: string; json?: boolean }) => {
    const report = await checkMachine({
      insecureNoCgroup: !!o.insecureNoCgroup,
      ...(o.languages ? { languagesPath: o.languages } : {}),
      ...(o.only ? { languages: o.only.split(',').map((s) => s.trim()) } : {}),
    });
    if (o.json) console.log(JSON.stringify(report, null, 2));
    else printReport(report);
    process.exitCode = report.ok ? 0 : 1;
  });

registerLanguagesCommand(program);
registerInstallServiceCommand(program);

function printReport(r: CheckReport): void {
  const mark = (ok: boolean) => (ok ? 'ok  ' : 'FAIL');
  console.log(`${mark(r.bwrap.found)} bubblewrap ${r.bwrap.found ? `${r.bwrap.version} at ${r.bwrap.path}` : 'not found (apt-get install bubblewrap)'}`);
  if (r.backend) console.log(`${mark(true)} sandbox backend ${r.backend}${r.cgroups ? ` (${r.cgroups})` : ''}`);
  if (r.error) console.log(`FAIL ${r.error}`);
  for (const c of r.caveats) console.log(`     caveat: ${c}`);
  for (const l of r.languages) {
    if (!l.present) {
      console.log(`--   ${l.id}: ${l.notes ?? 'not present'}`);
      continue;
    }
    const how = l.run ? `runs in ${l.run.wallMs} ms` : (l.error ?? l.compile?.log?.split('\n')[0] ?? 'failed');
    console.log(`${mark(l.ok)} ${l.id}: ${l.compile ? `compiles in ${l.compile.wallMs} ms, ` : ''}${how}`);
  }
  for (const l of r.limits) console.log(`${mark(l.ok)} ${l.name} limit: expected ${l.expected}, got ${l.status ?? l.error ?? 'nothing'}`);
  console.log(r.ok ? 'This machine can judge.' : 'This machine cannot judge as it is.');
}

program.parseAsync(process.argv).catch((e: unknown) => {
  console.error(`judge-runner: ${describe(e)}`);
  process.exit(e instanceof CliError || e instanceof ApiProblem || e instanceof Unreachable ? 1 : 2);
});
