import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket as WsSocket, WebSocketServer } from 'ws';
import { backoffMs, LiveSocket, SESSION_ENDED, type LiveFrame, type LiveSocketOptions, type LiveState } from '../src/live-socket.js';

/**
 * The browser's reconnecting event socket against a real WebSocket server on an ephemeral port
 * (the `ws` package stands in for the browser's WebSocket): what reaches the page, and when and
 * whether it knocks again after the connection is lost.
 */

interface Judge {
  port: number;
  wss: WebSocketServer;
  http: Server;
  /** Times at which a client connected. */
  connections: number[];
}

const opened: Judge[] = [];
const sockets: LiveSocket[] = [];

async function listen(port = 0): Promise<Judge> {
  const http = createServer();
  const wss = new WebSocketServer({ server: http });
  const judge: Judge = { port, wss, http, connections: [] };
  wss.on('connection', () => judge.connections.push(Date.now()));
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  judge.port = (http.address() as AddressInfo).port;
  opened.push(judge);
  return judge;
}

/** Drops every client and stops listening, so that new connections are refused. */
async function shutDown(judge: Judge): Promise<void> {
  for (const c of judge.wss.clients) c.terminate();
  await new Promise<void>((resolve) => judge.wss.close(() => resolve()));
  await new Promise<void>((resolve) => judge.http.close(() => resolve()));
}

afterEach(async () => {
  for (const s of sockets.splice(0)) s.stop();
  for (const j of opened.splice(0)) if (j.http.listening) await shutDown(j);
});

interface Watched {
  socket: LiveSocket;
  frames: LiveFrame[];
  states: { state: LiveState; reconnected: boolean; at: number }[];
  unauthorized: number;
}

function watch(judge: Judge, extra: Partial<LiveSocketOptions> = {}): Watched {
  const w: Watched = { socket: undefined as unknown as LiveSocket, frames: [], states: [], unauthorized: 0 };
  w.socket = new LiveSocket({
    url: `ws://127.0.0.1:${judge.port}/api/v1/ws`,
    WebSocketImpl: WsSocket as unknown as typeof WebSocket,
    onFrame: (f) => w.frames.push(f),
    onState: (state, reconnected) => w.states.push({ state, reconnected, at: Date.now() }),
    onUnauthorized: () => w.unauthorized++,
    ...extra,
  });
  sockets.push(w.socket);
  w.socket.start();
  return w;
}

async function until(what: string, ok: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const opens = (w: Watched) => w.states.filter((s) => s.state === 'open');

describe('LiveSocket', () => {
  it('waits 1 s, doubling, at most 30 s between attempts by default', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((n) => backoffMs(n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('hands the page every frame, but neither pings nor what is not a frame', async () => {
    const judge = await listen();
    judge.wss.on('connection', (c) => {
      c.send(JSON.stringify({ type: 'ping' }));
      c.send('not json');
      c.send(JSON.stringify({ data: {} }));
      c.send(JSON.stringify({ type: 'rankingChanged', data: { activityId: 'a1' } }));
      c.send(JSON.stringify({ type: 'instanceChanged' }));
    });
    const w = watch(judge);
    await until('two frames', () => w.frames.length >= 2);
    await sleep(50);
    expect(w.frames).toEqual([
      { type: 'rankingChanged', data: { activityId: 'a1' } },
      { type: 'instanceChanged', data: {} },
    ]);
    expect(w.states.map((s) => [s.state, s.reconnected])).toEqual([
      ['connecting', false],
      ['open', false],
    ]);
  });

  it('reconnects after the server goes away, on a doubling backoff, and says it reconnected', async () => {
    const judge = await listen();
    const w = watch(judge, { backoffStartMs: 80, backoffMaxMs: 320 });
    await until('open', () => opens(w).length === 1);
    const port = judge.port;
    await shutDown(judge);
    await until('five refused attempts', () => w.states.filter((s) => s.state === 'connecting').length >= 6, 8000);
    // the wait is from each loss (closed) to the next attempt (connecting)
    const waits: number[] = [];
    w.states.forEach((s, i) => {
      const next = w.states[i + 1];
      if (s.state === 'closed' && next?.state === 'connecting') waits.push(next.at - s.at);
    });
    const expected = [80, 160, 320, 320];
    expect(waits.length).toBeGreaterThanOrEqual(expected.length);
    expected.forEach((e, i) => {
      expect(waits[i], `wait ${i}: ${waits.join(', ')}`).toBeGreaterThanOrEqual(e - 5);
      expect(waits[i], `wait ${i}: ${waits.join(', ')}`).toBeLessThan(e + 300);
    });

    const back = await listen(port);
    await until('open again', () => opens(w).length === 2, 5000);
    expect(opens(w)[1]!.reconnected).toBe(true);
    expect(back.connections).toHaveLength(1);

    // a connection that worked resets the backoff: the next loss waits the first step again
    const lostAt = Date.now();
    for (const c of back.wss.clients) c.close(1012);
    await until('open a third time', () => opens(w).length === 3, 5000);
    expect(opens(w)[2]!.at - lostAt).toBeLessThan(1000);
  });

  it('stops for good when the server ends the session (close 4001), retryNow included', async () => {
    const judge = await listen();
    judge.wss.on('connection', (c) => {
      c.send(JSON.stringify({ type: 'sessionExpired', data: {} }));
      c.close(SESSION_ENDED, 'session ended');
    });
    const w = watch(judge, { backoffStartMs: 30, backoffMaxMs: 60 });
    await until('told unauthorized', () => w.unauthorized === 1);
    expect(w.frames.map((f) => f.type)).toEqual(['sessionExpired']);
    w.socket.retryNow();
    await sleep(300);
    expect(judge.connections).toHaveLength(1);
    expect(w.socket.state).toBe('closed');
    expect(w.unauthorized).toBe(1);
  });

  it('reconnects at once on retryNow instead of waiting out the backoff', async () => {
    const judge = await listen();
    const w = watch(judge, { backoffStartMs: 20_000, backoffMaxMs: 20_000 });
    await until('open', () => opens(w).length === 1);
    for (const c of judge.wss.clients) c.close(1012);
    await until('closed', () => w.socket.state === 'closed');
    await sleep(100);
    expect(judge.connections).toHaveLength(1);
    const asked = Date.now();
    w.socket.retryNow();
    await until('open again', () => opens(w).length === 2, 3000);
    expect(Date.now() - asked).toBeLessThan(2000);
    expect(opens(w)[1]!.reconnected).toBe(true);
    expect(judge.connections).toHaveLength(2);
  });

  it('connects no more after stop', async () => {
    const judge = await listen();
    const w = watch(judge, { backoffStartMs: 30, backoffMaxMs: 30 });
    await until('open', () => opens(w).length === 1);
    w.socket.stop();
    await sleep(200);
    expect(judge.connections).toHaveLength(1);
    expect(w.socket.state).toBe('closed');
    w.socket.retryNow();
    await sleep(100);
    expect(judge.connections).toHaveLength(1);
  });
});
