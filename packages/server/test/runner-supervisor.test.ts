import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { Supervisor } from '../src/runner-supervisor.js';
import { sleep, until } from './support/wait.js';

/**
 * The supervisor of `judge up`'s local runner, with real child processes: a process that dies is
 * started again after a doubling delay, each exit is logged with its cause and its last stderr
 * lines, the state says what is going on, and stop() ends it for good.
 */

/** A node process that writes `lines` to stderr and then runs `then` (e.g. an exit). */
const program = (lines: string[], then: string) => () =>
  spawn(process.execPath, ['-e', `${lines.map((l) => `console.error(${JSON.stringify(l)});`).join('')}${then}`], { stdio: ['ignore', 'pipe', 'pipe'] });

describe('Supervisor', () => {
  it('restarts a crashing process with a doubling delay and logs each exit with its cause', async () => {
    const log: string[] = [];
    let starts = 0;
    const spawnOne = program(['starting', 'config broken'], 'process.exit(3)');
    const s = new Supervisor({ spawn: () => (starts++, spawnOne()), log: (l) => log.push(l), name: 'the test process', firstDelayMs: 50, maxDelayMs: 200 });
    expect(await s.start()).toBe(true);
    await until('four starts', () => starts >= 4, 10_000, 5);
    await s.stop();
    expect(log[0]).toMatch(/^judge: the test process \(pid \d+\) exited with code 3 after [\d.]+ s; starting it again in 0\.1 s; its last lines: starting \| config broken$/);
    const delays = log.slice(0, 3).map((l) => /again in ([\d.]+) s/.exec(l)![1]);
    // 50 ms, 100 ms, 200 ms (rounded to tenths of seconds), then capped at 200 ms
    expect(delays).toEqual(['0.1', '0.1', '0.2']);
    expect(s.status()).toMatchObject({ state: 'notStarted', reason: expect.stringMatching(/stop/) });
    const n = starts;
    await sleep(300);
    expect(starts).toBe(n);
  });

  it('shows running, then restarting with the next attempt and the last exit; SIGTERM on stop, no restart after', async () => {
    const s = new Supervisor({ spawn: program([], 'setInterval(() => {}, 1000)'), log: () => {}, firstDelayMs: 300 });
    await s.start();
    const first = s.status();
    expect(first).toMatchObject({ state: 'running', restarts: 0 });
    process.kill(first.pid!, 'SIGKILL');
    const restarting = await until('restarting', () => (s.status().state === 'restarting' ? s.status() : undefined), 5000, 5);
    expect(restarting).toMatchObject({ restarts: 0, lastExit: { signal: 'SIGKILL' } });
    expect(Date.parse(restarting.nextAttemptAt!) - Date.parse(restarting.lastExit!.at)).toBe(300);
    const again = await until('running again', () => (s.status().state === 'running' ? s.status() : undefined), 5000, 5);
    expect(again).toMatchObject({ restarts: 1, lastExit: { signal: 'SIGKILL' } });
    expect(again.pid).not.toBe(first.pid);
    await s.stop();
    expect(s.status()).toMatchObject({ state: 'notStarted', lastExit: { signal: 'SIGTERM' } });
  });

  it('after a process stayed up long enough the delay starts over', async () => {
    const log: string[] = [];
    const s = new Supervisor({ spawn: program([], 'setTimeout(() => process.exit(1), 150)'), log: (l) => log.push(l), firstDelayMs: 20, maxDelayMs: 1000, stableMs: 100 });
    await s.start();
    await until('three exits', () => log.length >= 3, 10_000, 5);
    await s.stop();
    expect(log.slice(0, 3).map((l) => /again in ([\d.]+) s/.exec(l)![1])).toEqual(['0.0', '0.0', '0.0']);
  });

  it('a process that cannot start is not tried again, and the state says why', async () => {
    const log: string[] = [];
    const s = new Supervisor({ spawn: () => ({ unavailable: 'not built here' }), log: (l) => log.push(l) });
    expect(await s.start()).toBe(false);
    expect(s.status()).toMatchObject({ state: 'notStarted', reason: 'not built here', restarts: 0 });
  });
});
