import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { availableParallelism } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Health } from '@judge/contract';
import { freeUidRange, movedUidsNotice, noFreeUidsReason, uidHolder } from '../packages/server/src/local-runner-uids.js';
import { inJudgeUpTerms, localRunnerExitHint } from '../packages/server/src/local-runner.js';
import { startupFailure } from '../packages/server/src/startup-errors.js';
import { loadTls } from '../packages/server/src/tls.js';
import { loadConfig } from '../packages/server/src/config.js';
// the runner's own claim, so that judge up reads the claims judge-runner really makes
import { claimUidRange, UidRangeInUse } from '../packages/runner/src/sandbox/host-lock.js';
import { until } from '../packages/server/test/support/wait.js';
import { helpFlags, unknownFlags } from './command-flags.js';

/**
 * A second judge on the box, or a runner left over: the sandbox uids judge up would give its local
 * runner are held by another runner. judge up takes the next free range and says which, and every
 * flag any of these messages names is one the command it names accepts. Uids 63000–63400 are this
 * file's alone.
 */

const JUDGE = fileURLToPath(new URL('../bin/judge', import.meta.url));
const RUNNER = fileURLToPath(new URL('../bin/judge-runner', import.meta.url));
const upFlags = helpFlags(JUDGE, ['up']);
const startFlags = helpFlags(RUNNER, ['start']);
const serveFlags = helpFlags(JUDGE, ['serve']);

/** The refusal judge-runner gives when its range is held (the runner's own message). */
async function runnerRefusal(base: number): Promise<string> {
  const first = await claimUidRange(base, 2, '/somewhere/else');
  try {
    await claimUidRange(base, 2);
    throw new Error('the second claim was not refused');
  } catch (e) {
    if (!(e instanceof UidRangeInUse)) throw e;
    return e.message;
  } finally {
    first.release();
  }
}

describe('the local runner’s sandbox uids', () => {
  it('a range another runner holds is passed over as a whole, and the holder is named', async () => {
    const held = await claimUidRange(63000, 3, '/other/runner');
    try {
      const range = await freeUidRange(63001, 2);
      expect(range).toEqual({ base: 63003, slots: 2, passed: [{ uid: 63001, holder: { pid: process.pid, uidBase: 63000, slots: 3, configDir: '/other/runner' } }] });
      expect(await freeUidRange(63003, 2)).toEqual({ base: 63003, slots: 2, passed: [] });
      expect(await uidHolder(63002)).toMatchObject({ pid: process.pid });
      expect(await uidHolder(63003)).toBeUndefined();
    } finally {
      held.release();
    }
    expect(await freeUidRange(63000, 3)).toEqual({ base: 63000, slots: 3, passed: [] });
  });

  it('a uid held by a process that does not say who it is is passed over by one', async () => {
    const squatter = net.createServer((s) => s.end());
    await new Promise<void>((r) => squatter.listen('\0judge-runner/sandbox-uid/63101', r));
    try {
      const range = await freeUidRange(63100, 2);
      expect(range).toMatchObject({ base: 63102, passed: [{ uid: 63101, holder: {} }] });
      expect(movedUidsNotice(63100, range!)).toMatch(/sandbox uids 63100\.\.63101 are in use \(another process\), so the local runner uses 63102\.\.63103/);
    } finally {
      squatter.close();
    }
  });

  it('every flag a message names is one the command it speaks of accepts', async () => {
    const refusal = await runnerRefusal(63200);
    // judge-runner's own advice names judge-runner start's flag…
    expect(refusal).toMatch(/--uid-base 63202/);
    expect(unknownFlags(refusal, startFlags)).toEqual([]);
    // …and judge up shows it in its own words
    const shown = inJudgeUpTerms(refusal);
    expect(shown).toMatch(/judge up --runner-uid-base 63202/);
    const range = { base: 63010, slots: 2, passed: [{ uid: 63000, holder: { pid: 7, uidBase: 63000, slots: 10, configDir: '/data/runner' } }] };
    const messages = [shown, movedUidsNotice(63000, range, '/data/runner'), noFreeUidsReason(63000, 2), localRunnerExitHint([shown]) ?? '', localRunnerExitHint(['bwrap: no permission']) ?? ''];
    for (const m of messages) expect(unknownFlags(m, upFlags), m).toEqual([]);
    expect(movedUidsNotice(63000, range, '/data/runner')).toMatch(/pid 7 was left running by an earlier judge on this data directory: stop it \(kill 7\)\. To keep this range at every start: judge up --runner-uid-base 63010$/);
    // a runner that lost its uids is not sent to judge-runner check: nothing is missing
    expect(localRunnerExitHint([shown])).not.toMatch(/check/);
    expect(localRunnerExitHint(['bwrap: no permission'])).toMatch(/judge-runner check/);
  });

  it('the failures at start of judge serve and judge up name flags both accept', () => {
    const listen = (code: string, port = 8080) => startupFailure(Object.assign(new Error(code), { code, syscall: 'listen', address: '127.0.0.1', port }))!;
    let tls = '';
    try {
      loadTls(loadConfig('/nonexistent', { tls: { certFile: '/x.crt', keyFile: '' } }, {}));
    } catch (e) {
      tls = startupFailure(e)!;
    }
    const messages = [listen('EADDRINUSE'), listen('EACCES', 80), listen('EADDRNOTAVAIL'), tls];
    expect(messages.every((m) => /--/.test(m))).toBe(true);
    for (const m of messages) {
      expect(unknownFlags(m, upFlags), m).toEqual([]);
      expect(unknownFlags(m, serveFlags), m).toEqual([]);
    }
  });
});

describe('judge up when another runner holds its sandbox uids', () => {
  const dir = mkdtempSync(join(tmpdir(), 'judge-up-uids-'));
  const data = join(dir, 'data');
  const slots = availableParallelism();
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts its runner on the next free range, says which, and names only flags judge up accepts', async () => {
    // a runner an earlier judge up on this data directory left running holds 63300…
    const stale = await claimUidRange(63300, slots, join(data, 'runner'));
    let out = '';
    try {
      const env = { ...process.env, JUDGE_AUTH_ARGON2_MEMORY_KIB: '1024', JUDGE_AUTH_ARGON2_ITERATIONS: '1', JUDGE_LOG_LEVEL: 'warn', JUDGE_ADMIN_PASSWORD: 'uids-admin-password' };
      child = spawn(JUDGE, ['up', '--data-dir', data, '--port', '0', '--runner-uid-base', '63300'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
      const url = await until('judge up to judge', () => {
        if (child!.exitCode !== null) throw new Error(`judge up exited ${child!.exitCode}: ${out}`);
        const u = /serving (http:\/\/\S+)\/api\/v1/.exec(out);
        return u && /runner local connected/.test(out) ? u[1]! : undefined;
      }, 60_000, 50);
      const moved = `${63300 + slots}..${63300 + 2 * slots - 1}`;
      expect(out).toContain(`sandbox uids 63300..${63300 + slots - 1} are in use (judge-runner pid ${process.pid}`);
      expect(out).toContain(`so the local runner uses ${moved}. pid ${process.pid} was left running by an earlier judge on this data directory`);
      expect(out).toContain(`judge up --runner-uid-base ${63300 + slots}`);
      // the runner holds the range it was given, and it is the one health shows running
      const health = (await (await fetch(`${url}/api/v1/health`)).json()) as Health;
      expect(health.localRunner).toMatchObject({ state: 'running', restarts: 0 });
      expect(await uidHolder(63300 + slots)).toMatchObject({ pid: health.localRunner!.pid, uidBase: 63300 + slots, slots });
      expect(out).not.toMatch(/judge-runner check/);
      expect(unknownFlags(out, upFlags), out).toEqual([]);
    } finally {
      stale.release();
    }
    child!.kill('SIGTERM');
    expect(await new Promise<number | null>((r) => child!.once('exit', (c) => r(c)))).toBe(0);
  }, 90_000);
});
