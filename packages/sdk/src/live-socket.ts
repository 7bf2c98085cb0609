/**
 * The event socket as a browser keeps it: one connection to /api/v1/ws that reconnects on the
 * interface's backoff (1 s, doubling, at most 30 s) and tells its listener when it is up again, so
 * screens refetch what they may have missed. Frames are signals to refetch, never the data itself.
 */
export interface LiveFrame {
  type: string;
  data: Record<string, unknown>;
}

export type LiveState = 'connecting' | 'open' | 'closed';

export interface LiveSocketOptions {
  /** ws:// or wss:// URL of the socket. */
  url: string;
  onFrame(frame: LiveFrame): void;
  /** Called on every state change; `reconnected` is true when an open follows a lost connection. */
  onState?(state: LiveState, reconnected: boolean): void;
  /** The server ended the session (a `sessionExpired` frame, then close 4001): no reconnecting with it. */
  onUnauthorized?(): void;
  /** The WebSocket constructor (the browser's by default). */
  WebSocketImpl?: typeof WebSocket;
  /** The first wait before reconnecting (1 s by default; shorter in tests). */
  backoffStartMs?: number;
  /** The longest wait before reconnecting (30 s by default). */
  backoffMaxMs?: number;
}

/** The close code the server sends after `sessionExpired`. */
export const SESSION_ENDED = 4001;
export const BACKOFF_START_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;

/** The wait before reconnect attempt `n` (0-based): 1 s doubling to 30 s. */
export function backoffMs(attempt: number, startMs = BACKOFF_START_MS, maxMs = BACKOFF_MAX_MS): number {
  return Math.min(maxMs, startMs * 2 ** Math.min(attempt, 15));
}

export class LiveSocket {
  private socket: WebSocket | undefined;
  private attempt = 0;
  private everOpened = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  state: LiveState = 'closed';

  constructor(private readonly opts: LiveSocketOptions) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close();
    this.socket = undefined;
    this.setState('closed', false);
  }

  /** Reconnects now rather than after the backoff (e.g. when the page becomes visible or the network returns). */
  retryNow(): void {
    if (this.stopped || this.state !== 'closed') return;
    if (this.timer) clearTimeout(this.timer);
    this.connect();
  }

  private setState(state: LiveState, reconnected: boolean): void {
    this.state = state;
    this.opts.onState?.(state, reconnected);
  }

  private connect(): void {
    const Impl = this.opts.WebSocketImpl ?? WebSocket;
    this.setState('connecting', false);
    let ws: WebSocket;
    try {
      ws = new Impl(this.opts.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = ws;
    ws.onopen = () => {
      const reconnected = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      this.setState('open', reconnected);
    };
    ws.onmessage = (ev) => {
      let f: LiveFrame;
      try {
        f = JSON.parse(String(ev.data)) as LiveFrame;
      } catch {
        return;
      }
      if (typeof f?.type !== 'string' || f.type === 'ping') return;
      this.opts.onFrame({ type: f.type, data: f.data && typeof f.data === 'object' ? f.data : {} });
    };
    // a failed connection is followed by close, which decides what next; without a listener,
    // WebSocket implementations built on an EventEmitter (ws in Node) throw the error instead
    ws.onerror = () => {};
    ws.onclose = (ev) => {
      if (this.socket !== ws) return;
      this.socket = undefined;
      if (this.stopped) return;
      // a refused handshake looks like any lost connection; the page learns from its next REST call
      // whether the session is gone, while an ended session says so and must not be retried
      if (ev.code === SESSION_ENDED) {
        // ended for good: neither the backoff nor retryNow may knock again with a dead session
        this.stopped = true;
        this.setState('closed', false);
        this.opts.onUnauthorized?.();
        return;
      }
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    this.setState('closed', false);
    const wait = backoffMs(this.attempt++, this.opts.backoffStartMs, this.opts.backoffMaxMs);
    this.timer = setTimeout(() => this.connect(), wait);
  }
}
