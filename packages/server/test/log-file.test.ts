import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@judge/server';
import { openLogFile } from '../src/log-file.js';

describe('the server log file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'judge-log-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is rotated at logs.maxFileBytes, keeps logs.keepFiles old files, and writes no secret', async () => {
    const config = loadConfig(dir, { logLevel: 'info', logs: { maxFileBytes: 65536, keepFiles: 2 } }, {});
    const file = join(dir, 'judge.log');
    const { log, closeLog } = openLogFile(config, file);
    const filler = 'x'.repeat(200);
    // about 5 × 64 KiB: enough for more rotations than are kept
    for (let i = 0; i < 1500; i++) {
      log.info({ i, body: { password: 'hunter2-secret' }, filler }, 'line');
      // rotation happens between writes as the stream drains
      if (i % 100 === 0) await new Promise((r) => setImmediate(r));
    }
    await closeLog();
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(existsSync(`${file}.2`)).toBe(true);
    expect(existsSync(`${file}.3`)).toBe(false);
    for (const f of [file, `${file}.1`, `${file}.2`]) {
      // a rotation happens after the write that crossed the size: at most one line over
      expect(statSync(f).size).toBeLessThan(65536 + 1024);
      const text = readFileSync(f, 'utf8');
      expect(text).not.toContain('hunter2-secret');
      for (const l of text.split('\n').filter(Boolean)) expect((JSON.parse(l) as { body: { password: string } }).body.password).toBe('[secret]');
    }
    // the newest lines are in judge.log
    const last = readFileSync(file, 'utf8').trim().split('\n').pop()!;
    expect((JSON.parse(last) as { i: number }).i).toBe(1499);
  });
});
