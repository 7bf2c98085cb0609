import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import nacl from 'tweetnacl';
import type { RunnersService } from './modules/runners/index.js';
import { DEFAULT_UID_BASE, freeUidRange, localRunnerSlots, movedUidsNotice, noFreeUidsReason } from './local-runner-uids.js';
import { Supervisor, type Spawned } from './runner-supervisor.js';
import { sha256Hex } from './util.js';

/**
 * The runner `judge up` starts beside the server: the same judge-runner program an administrator
 * starts on a lab machine (the server never imports it), with its configuration and key kept in
 * the data directory, and trusted without manual approval because the server made the key itself.
 * It is supervised: started again with backoff whenever it exits until the server stops.
 */
export interface LocalRunner {
  supervisor: Supervisor;
  /** Stops it the polite way (it finishes or gives back its jobs), waits for it to exit, and restarts no more. */
  stop(): Promise<void>;
}

/** Where a checkout or an installed tree keeps the runner, relative to this file (packages/server/dist). */
export function runnerProgram(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidate = resolve(here, '..', '..', 'runner', 'dist', 'main.js');
  return existsSync(candidate) ? candidate : undefined;
}

export const BUBBLEWRAP_MISSING =
  'bubblewrap (bwrap) is not installed, so this judge serves but judges nothing: install the Debian package bubblewrap (sudo apt-get install bubblewrap) and start judge up again';

/**
 * Where bwrap is, looked for as judge-runner looks (PATH, then the usual directories): without it
 * the runner would exit at every start and be restarted forever, so judge up does not start one.
 */
export function findBubblewrap(path = process.env.PATH ?? ''): string | undefined {
  for (const dir of [...path.split(':').filter(Boolean), '/usr/bin', '/bin', '/usr/local/bin']) {
    const candidate = join(dir, 'bwrap');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

interface KeyFile {
  publicKey: string;
  secretKey: string;
}

/** The local runner's key, made once (mode 0600) in the format judge-runner reads. */
function localKey(dir: string): KeyFile {
  const file = join(dir, 'key.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
  const pair = nacl.sign.keyPair();
  const key = { publicKey: Buffer.from(pair.publicKey).toString('base64'), secretKey: Buffer.from(pair.secretKey).toString('base64') };
  writeFileSync(file, `${JSON.stringify({ ...key, fingerprint: sha256Hex(Buffer.from(pair.publicKey)), createdAt: new Date().toISOString() }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}

export interface LocalRunnerOptions {
  dataDir: string;
  serverUrl: string;
  languages?: string;
  /**
   * The first sandbox uid tried for its slots (default 60000); the first range from there that no
   * other runner holds is passed as judge-runner's --uid-base.
   */
  uidBase?: number;
  runners: RunnersService;
  /** The runner's own output lines, each prefixed `runner: ` (the server log). */
  log: (line: string) => void;
  /** The supervisor's account of exits and restarts (the console as well as the log); default `log`. */
  notice?: (line: string) => void;
}

/**
 * Prepares DATA_DIR/runner (key, runner.json pointing at this server), trusts the key, and starts
 * `judge-runner start` with its output prefixed, under a supervisor that restarts it when it exits.
 * The supervisor's status says why not when it cannot start one.
 */
export function startLocalRunner(opts: LocalRunnerOptions): LocalRunner {
  let runnerId: string | undefined;
  // a dead runner holds its jobs until their leases lapse (minutes), and a long poll it had open
  // may still be handed a job in the moment before the server sees it gone: what the local runner
  // holds goes back at once when it exits, and again before the next one starts (also the first
  // one, after a judge that was killed with its runner)
  const giveBack = () => {
    if (runnerId) void opts.runners.requeueLocal(runnerId).catch((e: unknown) => opts.log(`could not give back what the local runner held: ${String(e)}`));
  };
  const said: { notice?: string } = {};
  const spawnOne = () =>
    spawnLocalRunner(
      opts,
      (id) => {
        runnerId = id;
        giveBack();
      },
      said,
    );
  const supervisor = new Supervisor({
    spawn: spawnOne,
    onExit: giveBack,
    log: opts.notice ?? opts.log,
    name: 'the local runner',
    earlyExitHint: localRunnerExitHint,
    quote: inJudgeUpTerms,
  });
  void supervisor.start();
  return { supervisor, stop: () => supervisor.stop() };
}

/**
 * A line of judge-runner as judge up shows it: its advice names judge-runner's flags, which
 * judge up spells its own way (the uids of the local runner are `judge up --runner-uid-base`).
 */
export function inJudgeUpTerms(line: string): string {
  return line.replace(/(^|[^-\w])--uid-base(?=[\s=]|$)/g, '$1judge up --runner-uid-base');
}

/**
 * What judge up adds when its runner ended at once. Sandbox uids taken since the last look are
 * looked for again before the next start, so that needs nothing of the administrator; anything
 * else may be something this machine lacks, which judge-runner check tells.
 */
export function localRunnerExitHint(tail: readonly string[]): string | undefined {
  if (tail.some((l) => /sandbox uid \d+ .* is already used by/.test(l))) return 'Another runner took its sandbox uids; judge up looks for a free range before it starts it again';
  return '`bin/judge-runner check` tells what this machine lacks to judge';
}

/**
 * The sandbox uids of the next start: the first free range from the one asked for (as root only;
 * a runner that is not root judges as its own uid and claims none). Says when it had to move on.
 */
async function uidBaseFor(opts: LocalRunnerOptions, configDir: string, said: { notice?: string }): Promise<number | { unavailable: string }> {
  const asked = opts.uidBase ?? DEFAULT_UID_BASE;
  if (process.geteuid?.() !== 0) return asked;
  const slots = localRunnerSlots();
  const range = await freeUidRange(asked, slots);
  if (!range) return { unavailable: noFreeUidsReason(asked, slots) };
  if (range.base !== asked) {
    const notice = movedUidsNotice(asked, range, configDir);
    // said once per range, not again at every restart on the same one
    if (notice !== said.notice) (opts.notice ?? opts.log)(notice);
    said.notice = notice;
  }
  return range.base;
}

/** One start of the local runner; each start checks again that its key is still trusted and its uids free. */
async function spawnLocalRunner(opts: LocalRunnerOptions, trusted: (runnerId: string) => void, said: { notice?: string }): Promise<Spawned> {
  const program = runnerProgram();
  if (!program) return { unavailable: 'judge-runner is not built here (packages/runner/dist/main.js is missing): run ./install.sh' };
  if (!findBubblewrap()) return { unavailable: BUBBLEWRAP_MISSING };
  const dir = join(opts.dataDir, 'runner');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = localKey(dir);
  const trust = await opts.runners.trustLocal(key.publicKey, 'local');
  if (trust.state !== 'approved') return { unavailable: "the local runner's key was revoked; delete runner/key.json in the data directory to make a new one" };
  trusted(trust.runnerId);
  writeFileSync(join(dir, 'runner.json'), `${JSON.stringify({ server: opts.serverUrl, name: 'local', tags: [] }, null, 2)}\n`, { mode: 0o600 });
  // the server's language table, so that both know the same languages
  const languages = opts.languages ? ['--languages', opts.languages] : [];
  const uidBase = await uidBaseFor(opts, dir, said);
  if (typeof uidBase !== 'number') return uidBase;
  const uids = uidBase !== DEFAULT_UID_BASE ? ['--uid-base', String(uidBase)] : [];
  const child = spawn(process.execPath, [program, 'start', '--config-dir', dir, ...languages, ...uids], { stdio: ['ignore', 'pipe', 'pipe'] });
  const relay = (stream: NodeJS.ReadableStream | null) => {
    let rest = '';
    stream?.on('data', (d: Buffer) => {
      const lines = (rest + d.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const l of lines) if (l.trim()) opts.log(`runner: ${inJudgeUpTerms(l)}`);
    });
  };
  relay(child.stdout);
  relay(child.stderr);
  return child;
}
