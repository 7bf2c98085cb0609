import { fillPath, type Operation, type OperationInput, type OperationOutput, type TokenResponse } from '@judge/contract';
import { ops } from './op-table.js';
import { ApiProblem, Unreachable } from './problem.js';

export interface ClientOptions {
  /** The server's origin, e.g. http://127.0.0.1:8080 (a trailing /api/v1 is accepted). */
  baseUrl: string;
  accessToken?: string;
  refreshToken?: string;
  /** A `judge_session` cookie value, for cookie-authenticated calls and the event socket. */
  cookie?: string;
  /** Sent as Origin with cookie-authenticated writes; defaults to the base URL's origin. */
  origin?: string;
  userAgent?: string;
}

export type CallInput<O extends Operation> = OperationInput<O> & { headers?: Record<string, string>; signal?: AbortSignal };

/** Lower-case hex SHA-256 of bytes, by Web Crypto (the same in Node and in browsers). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new Uint8Array(bytes)));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/**
 * Typed client for /api/v1: `client.call(ops.getAccount, {})` is checked against the contract.
 * It runs in Node and in browsers: in a page of the judge's own origin it needs neither token nor
 * cookie, since the browser sends the session cookie and Origin itself.
 */
export class ApiClient {
  readonly baseUrl: string;
  accessToken: string | undefined;
  refreshToken: string | undefined;
  cookie: string | undefined;
  readonly origin: string;
  private readonly userAgent: string | undefined;

  constructor(opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
    this.accessToken = opts.accessToken;
    this.refreshToken = opts.refreshToken;
    this.cookie = opts.cookie;
    this.origin = opts.origin ?? new URL(this.baseUrl).origin;
    this.userAgent = opts.userAgent;
  }

  private url<O extends Operation>(op: O, input: CallInput<O>): string {
    const path = fillPath(op.path, input.params as Record<string, string> | undefined);
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
      if (v === undefined || v === null) continue;
      if (Array.isArray(v)) for (const x of v) q.append(k, String(x));
      else q.set(k, String(v));
    }
    const qs = q.toString();
    return `${this.baseUrl}/api/v1${path}${qs ? `?${qs}` : ''}`;
  }

  /** Sends the request and returns the raw response, whatever its status. */
  async send<O extends Operation>(op: O, input: CallInput<O>): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...(this.userAgent ? { 'user-agent': this.userAgent } : {}) };
    if (this.accessToken) headers.authorization = `Bearer ${this.accessToken}`;
    else if (this.cookie) {
      headers.cookie = `judge_session=${this.cookie}`;
      if (op.method !== 'GET') headers.origin = this.origin;
    }
    let body: string | FormData | undefined;
    const i = input as { body?: unknown; form?: FormData };
    if (i.form) body = i.form;
    else if (i.body !== undefined) {
      body = JSON.stringify(i.body);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, input.headers);
    try {
      return await fetch(this.url(op, input), { method: op.method, headers, body, ...(input.signal ? { signal: input.signal } : {}) });
    } catch (e) {
      throw new Unreachable(this.baseUrl, (e as { cause?: unknown }).cause ?? e);
    }
  }

  /** Calls an operation; a failure throws ApiProblem with the server's code and detail. */
  async call<O extends Operation>(op: O, input: CallInput<O> = {} as CallInput<O>): Promise<OperationOutput<O>> {
    const res = await this.send(op, input);
    if (!res.ok) throw await problemOf(res);
    if (res.status === 204 || res.headers.get('content-length') === '0') return undefined as OperationOutput<O>;
    if (op.response === 'binary') return (await res.arrayBuffer()) as OperationOutput<O>;
    return (await res.json()) as OperationOutput<O>;
  }

  /** Signs in with a bearer token pair, kept on this client; `second`: a code of the authenticator, or a recovery code, when the account has two-factor sign-in. */
  async login(login: string, password: string, second: { twoFactorCode?: string; twoFactorRecoveryCode?: string } = {}): Promise<TokenResponse> {
    const t = await this.call(ops.login, { body: { email: login, password, ...second } });
    this.accessToken = t.accessToken;
    this.refreshToken = t.refreshToken;
    this.cookie = undefined;
    return t;
  }

  /** Signs in with a session cookie (as a browser does), kept on this client. */
  async loginWithCookie(login: string, password: string, persistent = true): Promise<string> {
    const res = await this.send(ops.login, { query: persistent ? { useCookies: 'true' } : { useSessionCookies: 'true' }, body: { email: login, password } });
    if (!res.ok) throw await problemOf(res);
    const set = res.headers.getSetCookie().find((c) => c.startsWith('judge_session='));
    if (!set) throw new Error('the server set no session cookie');
    this.cookie = set.slice('judge_session='.length).split(';')[0]!;
    this.accessToken = undefined;
    return this.cookie;
  }

  /** Exchanges the refresh token for a new pair. */
  async refresh(): Promise<TokenResponse> {
    if (!this.refreshToken) throw new Error('no refresh token');
    const t = await this.call(ops.refresh, { body: { refreshToken: this.refreshToken } });
    this.accessToken = t.accessToken;
    this.refreshToken = t.refreshToken;
    return t;
  }

  /** Uploads bytes with their SHA-256, as the server requires. */
  async upload(name: string, bytes: Uint8Array | string, mimeType = 'application/octet-stream') {
    const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
    const form = new FormData();
    form.set('sha256', await sha256Hex(data));
    form.set('file', new Blob([new Uint8Array(data)], { type: mimeType }), name);
    return this.call(ops.uploadFile, { form });
  }

  /**
   * Submits a solution of one or more files (decisions §9): a file part each, and their SHA-256
   * digests in the same order, comma-separated in the one sha256 part.
   */
  async submit(idOrSlug: string, problemSlug: string, files: { name: string; bytes: Uint8Array | string }[], props?: Record<string, unknown>) {
    const form = new FormData();
    const digests: string[] = [];
    for (const f of files) {
      const data = typeof f.bytes === 'string' ? new TextEncoder().encode(f.bytes) : f.bytes;
      digests.push(await sha256Hex(data));
      form.append('file', new Blob([new Uint8Array(data)], { type: 'text/plain' }), f.name);
    }
    form.set('sha256', digests.join(','));
    if (props) form.set('props', JSON.stringify(props));
    return this.call(ops.submit, { params: { idOrSlug, problemSlug }, form });
  }

}

export async function problemOf(res: Response): Promise<ApiProblem> {
  let doc: Record<string, unknown> = {};
  try {
    doc = (await res.json()) as Record<string, unknown>;
  } catch {
    doc = { detail: res.statusText };
  }
  const retry = res.headers.get('retry-after');
  return new ApiProblem(res.status, doc, retry ? Number(retry) : undefined);
}
