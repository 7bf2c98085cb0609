import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import { openMailer } from '../src/mail/mailer.js';
import { Outgoing } from '../src/mail/outgoing.js';
import { systemClock } from '../src/util.js';
import { startSmtpPeer, type SmtpPeer } from './support/smtp-peer.js';
import { until } from './support/wait.js';

/**
 * The mail of writes (mail/outgoing.ts) against a real SMTP server: sent at once, tried again while
 * the server refuses it, given up after its last try (logged, and kept for /health), and logged as
 * not sent when the server stops while it waits. Short retry delays stand in for 10 s … 30 min.
 */

const mail = (to: string) => ({ to, subject: 'Reset your password', text: 'code K7QF-2M9X-RT4P-8HWB', html: '<p>code</p>' });

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  return { lines, log: pino({ level: 'info' }, stream) };
}

describe('outgoing mail', () => {
  const peers: SmtpPeer[] = [];
  afterEach(async () => {
    await Promise.all(peers.splice(0).map((p) => p.close()));
  });

  async function outgoing(opts: { refuseFirst?: number; password?: string; delays?: number[] } = {}) {
    const peer = await startSmtpPeer('judge', 'smtp-secret-for-tests', { refuseFirst: opts.refuseFirst ?? 0 });
    peers.push(peer);
    const { lines, log } = capture();
    const mailer = openMailer({ smtpUrl: peer.url(opts.password), from: 'judge@school.example', publicUrl: '', dataDir: '/nonexistent', log });
    return { peer, lines, out: new Outgoing(mailer, log, systemClock, opts.delays ?? [30, 30]) };
  }

  it('sends at once and settles', async () => {
    const { peer, out } = await outgoing();
    out.post(mail('a@school.example'));
    expect(out.pending).toBe(1);
    await out.idle();
    expect(peer.received.map((r) => r.envelopeTo)).toEqual([['a@school.example']]);
    expect(out.pending).toBe(0);
    expect(out.failures()).toEqual([]);
  });

  it('tries again while the server says "later", and the message arrives once', async () => {
    const { peer, out } = await outgoing({ refuseFirst: 2 });
    out.post(mail('b@school.example'));
    await until('the third try', () => (peer.received.length ? true : undefined), 10_000, 10);
    await out.idle();
    expect(peer.received).toHaveLength(1);
    expect(out.failures()).toEqual([]);
    expect(out.pending).toBe(0);
  });

  it('gives up after the last try: an error in the log, and the failure kept for administrators, without the password', async () => {
    const { lines, out } = await outgoing({ password: 'wrong-password-for-tests' });
    out.post(mail('c@school.example'));
    await until('given up', () => (out.failures().length ? true : undefined), 10_000, 10);
    const [f] = out.failures();
    expect(f).toMatchObject({ to: 'c@school.example', subject: 'Reset your password', tries: 3, reason: expect.stringContaining('535') });
    expect(out.pending).toBe(0);
    const given = lines.find((l) => l.msg === 'mail given up');
    expect(given).toMatchObject({ level: 50, to: 'c@school.example', tries: 3 });
    const all = JSON.stringify(lines);
    expect(all).not.toContain('wrong-password-for-tests');
    expect(all).not.toContain('K7QF-2M9X-RT4P-8HWB');
  });

  it('logs a message still waiting for a try as not sent when the server stops, and sends nothing after', async () => {
    const { peer, lines, out } = await outgoing({ refuseFirst: 1, delays: [60_000] });
    out.post(mail('d@school.example'));
    await until('the first try failed', () => (lines.some((l) => l.msg === 'mail not sent') ? true : undefined), 10_000, 10);
    await out.idle();
    expect(out.pending).toBe(1);
    await out.close();
    expect(out.pending).toBe(0);
    expect(lines.find((l) => String(l.msg).startsWith('mail not sent: the server stopped'))).toMatchObject({ level: 50, to: 'd@school.example' });
    out.post(mail('e@school.example'));
    await new Promise((r) => setTimeout(r, 100));
    expect(peer.received).toEqual([]);
  });
});
