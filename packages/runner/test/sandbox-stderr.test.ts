/**
 * stderr in the real sandbox: read through a pipe whatever the caller asked for, counted, its head
 * and tail kept, never limited (it is not output), and what was kept written to the caller's file
 * or fd once the run ends.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox, type Limits } from '@judge/runner';
import { StderrKeeper } from '../src/sandbox/stdio.js';

const MiB = 1024 * 1024;
const hasBwrap = Sandbox.findBwrap() !== null;
const LIMITS: Limits = { cpuMs: 5000, wallMs: 10000, memoryBytes: 256 * MiB, pids: 16, outputBytes: MiB };
// 20 MiB of stderr, framed by a first and a last line, then "ok" on stdout
const FLOOD = ['/bin/sh', '-c', 'echo first >&2; head -c 20971520 /dev/zero | tr "\\0" e >&2; echo >&2; echo last >&2; echo ok'];

describe('StderrKeeper', () => {
  it('keeps the head and the tail, counts everything, and says how much it left out', async () => {
    const k = new StderrKeeper(8, false);
    k.resume();
    k.end(Buffer.from('0123456789'.repeat(1000)));
    await new Promise((r) => k.once('end', r));
    expect(k.bytes).toBe(10_000);
    expect(k.headText()).toBe('01234567');
    expect(k.tailText()).toHaveLength(4096);
    expect(k.keptText()).toBe(`01234567\n… (${10_000 - 8 - 4096} bytes of stderr left out)\n${'0123456789'.repeat(1000).slice(-4096)}`);
    const small = new StderrKeeper(4096, false);
    small.resume();
    small.end(Buffer.from('short\n'));
    await new Promise((r) => small.once('end', r));
    expect(small.keptText()).toBe('short\n');
  });
});

describe.skipIf(!hasBwrap)('stderr in the sandbox', () => {
  let sandbox: Sandbox;
  let tmp: string;
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-stderr-'));
    fs.chmodSync(tmp, 0o755);
    sandbox = await Sandbox.create({ workRoot: path.join(tmp, 'work'), insecureNoCgroup: true });
  });
  afterAll(async () => {
    await sandbox?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('20 MiB of stderr under a 1 MiB output limit is ok; the file gets the head, a note and the tail', async () => {
    const box = await sandbox.prepareBox();
    const out = path.join(tmp, 'flood.out');
    const err = path.join(tmp, 'flood.err');
    try {
      const r = await sandbox.run({ argv: FLOOD, workDir: box.path, stdout: { path: out }, stderr: { path: err }, limits: LIMITS });
      expect(r.status, r.reason).toBe('ok');
      expect(r.stderrBytes).toBe(20 * MiB + 'first\n\nlast\n'.length);
      expect(r.stderrHead).toMatch(/^first\neeee/);
      expect(r.stderrHead).toHaveLength(4096);
      expect(r.stderrTail).toMatch(/eeee\nlast\n$/);
      expect(fs.readFileSync(out, 'utf8')).toBe('ok\n');
      const kept = fs.readFileSync(err, 'utf8');
      expect(kept).toMatch(/^first\ne+\n… \(\d+ bytes of stderr left out\)\ne+\nlast\n$/);
      expect(kept.length).toBeLessThan(9000);
    } finally {
      await box.dispose();
    }
  });

  it('stderr asked for as a pipe reaches the caller whole and is never an OLE; an fd gets what was kept after the output', async () => {
    const box = await sandbox.prepareBox();
    try {
      const p = sandbox.start({ argv: FLOOD, workDir: box.path, stdout: 'ignore', stderr: 'pipe', limits: LIMITS });
      let seen = 0;
      p.stderr!.on('data', (d: Buffer) => (seen += d.length));
      const r = await p.result;
      expect(r.status).toBe('ok');
      expect(seen).toBe(r.stderrBytes);

      const log = path.join(tmp, 'shared.log');
      const fd = fs.openSync(log, 'w', 0o600);
      try {
        const shared = await sandbox.run({ argv: ['/bin/sh', '-c', 'echo to-stdout; echo to-stderr >&2'], workDir: box.path, stdout: { fd }, stderr: { fd }, limits: LIMITS });
        expect(shared.status).toBe('ok');
      } finally {
        fs.closeSync(fd);
      }
      expect(fs.readFileSync(log, 'utf8')).toBe('to-stdout\nto-stderr\n');
    } finally {
      await box.dispose();
    }
  });

  it('ignored stderr costs nothing and says nothing; stdout past the limit is still an OLE', async () => {
    const box = await sandbox.prepareBox();
    try {
      const quiet = await sandbox.run({ argv: FLOOD, workDir: box.path, stdout: 'ignore', stderr: 'ignore', limits: LIMITS });
      expect(quiet.status).toBe('ok');
      expect(quiet.stderrBytes).toBeUndefined();
      const loud = await sandbox.run({ argv: ['/bin/sh', '-c', 'head -c 2097152 /dev/zero'], workDir: box.path, stdout: { path: path.join(tmp, 'loud.out') }, limits: LIMITS });
      expect(loud.status).toBe('ole');
    } finally {
      await box.dispose();
    }
  });
});
