import type { EventType } from '@judge/contract';
import WebSocket from 'ws';

export interface EventStreamOptions {
  url: string;
  cookie: string;
  origin: string;
}

export interface Frame {
  type: EventType | 'ping' | string;
  data: Record<string, unknown>;
}

/**
 * One connection to the event socket. Frames that are not JSON or have no string type are dropped,
 * as the interface asks of clients. `next(type)` waits for the next frame of a type.
 */
export class EventStream {
  readonly socket: WebSocket;
  readonly frames: Frame[] = [];
  private waiters: { type: string | undefined; resolve(f: Frame): void }[] = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(opts: EventStreamOptions) {
    this.socket = new WebSocket(opts.url, { headers: { cookie: `judge_session=${opts.cookie}`, origin: opts.origin } });
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`socket refused: ${res.statusCode}`), { status: res.statusCode })));
      this.socket.once('error', reject);
    });
    this.closed = new Promise((resolve) => this.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    this.socket.on('message', (raw) => {
      let f: Frame;
      try {
        f = JSON.parse(raw.toString()) as Frame;
      } catch {
        return;
      }
      if (typeof f?.type !== 'string') return;
      const i = this.waiters.findIndex((w) => w.type === undefined || w.type === f.type);
      if (i >= 0) this.waiters.splice(i, 1)[0]!.resolve(f);
      else this.frames.push(f);
    });
  }

  /** The next frame of `type` (any type when absent), from those already received or yet to come. */
  next(type?: string, timeoutMs = 5000): Promise<Frame> {
    const i = this.frames.findIndex((f) => type === undefined || f.type === type);
    if (i >= 0) return Promise.resolve(this.frames.splice(i, 1)[0]!);
    return new Promise((resolve, reject) => {
      const w = { type, resolve: (f: Frame) => (clearTimeout(t), resolve(f)) };
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error(`no ${type ?? 'event'} frame within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  close(): void {
    this.socket.close();
  }
}
