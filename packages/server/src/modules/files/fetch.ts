import { createHash } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { dirname } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, validation } from '@judge/contract';
import { addressAllowed, classifyAddress } from './addresses.js';

/**
 * POST /files/fetch's download (decisions §11): the URL is checked (http or https, a host of the
 * external-content list), its name resolved here and every address checked, and the connection
 * made to the checked addresses only, so a name that resolves differently a moment later (DNS
 * rebinding) cannot lead it elsewhere. Redirects are followed here, each checked the same way.
 * The body streams to a file in the incoming folder, hashed and counted as it comes; a refusal
 * leaves nothing behind.
 */

export const MAX_REDIRECTS = 5;

/** Resolves a host name to every address it has, as dns.lookup with `all: true` answers. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface FetchOptions {
  /** The largest body (the upload limit). */
  maxBytes: number;
  /** The whole download: resolving, connecting, redirects and the body. */
  timeoutMs: number;
  /** Tests only (setting files.fetchAllowLoopback): loopback addresses may be fetched from. */
  allowLoopback: boolean;
  /** A fresh path in the incoming folder for the body. */
  tempPath: () => string;
  /** Tests give their own; the system resolver otherwise. */
  resolve?: Resolver;
}

/** A downloaded body in the incoming folder, not yet stored. */
export interface Fetched {
  tempPath: string;
  sha256: string;
  sizeBytes: number;
  name: string;
  mimeType: string;
  /** The host asked for, and the one the body came from (after redirects). */
  host: string;
  finalHost: string;
  redirects: number;
}

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

const refuse = (code: 'fetch.scheme' | 'fetch.host.notAllowed' | 'fetch.address.forbidden' | 'fetch.tooLarge' | 'fetch.timeout' | 'fetch.failed' | 'fetch.redirects', detail: string) =>
  ApiError.of(code, detail);

/** A URL's host as the list names hosts: lowercase (the URL parser made it so), without a trailing dot. */
const hostOf = (u: URL): string => u.hostname.replace(/\.$/, '');

/**
 * Whether the external-content list allows a URL: an entry names the host exactly, or `*.domain`
 * any name under that domain (not the domain itself). An entry with a port allows that port only;
 * one without allows only the scheme's default port.
 */
export function hostAllowed(u: URL, hosts: readonly string[]): boolean {
  const host = hostOf(u);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  return hosts.some((entry) => {
    const [name = '', entryPort] = entry.split(':');
    if (entryPort === undefined ? u.port !== '' : Number(entryPort) !== port) return false;
    return name.startsWith('*.') ? host.endsWith(name.slice(1)) && host.length > name.length - 1 : host === name;
  });
}

/** Control characters, which no file name keeps. */
const CONTROL = /[\u0000-\u001f\u007f]/g;

/** A name as a stored file keeps it: its last path segment, no control characters, at most 255 characters. */
function cleanName(raw: string | undefined): string | undefined {
  const name = raw?.split(/[/\\]/).pop()?.replace(CONTROL, '').trim().slice(0, 255);
  return name && name !== '.' && name !== '..' ? name : undefined;
}

function decodeOr(s: string, fallback: string | undefined): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return fallback;
  }
}

/** The file name a Content-Disposition header gives: `filename*` (RFC 5987, UTF-8) before `filename`. */
export function dispositionName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const star = /(?:^|;)\s*filename\*\s*=\s*([^;]*)/i.exec(header)?.[1]?.trim();
  const extended = star && /^utf-8'[^']*'(.+)$/i.exec(star)?.[1];
  const fromStar = extended ? cleanName(decodeOr(extended, undefined)) : undefined;
  if (fromStar) return fromStar;
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(header);
  if (!plain) return undefined;
  return cleanName(plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2]);
}

/** The last segment of a URL's path, decoded. */
function pathName(u: URL): string | undefined {
  const last = u.pathname.split('/').pop() ?? '';
  return cleanName(decodeOr(last, last));
}

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;

/** The media type of a Content-Type header without its parameters; anything odd is application/octet-stream. */
export function mimeOf(header: string | undefined): string {
  const type = (header ?? '').split(';')[0]!.trim().toLowerCase();
  return MIME.test(type) ? type : 'application/octet-stream';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;

  constructor(readonly ms: number) {
    this.timer = setTimeout(() => this.controller.abort(new Error('fetch deadline')), ms);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get expired(): boolean {
    return this.controller.signal.aborted;
  }

  refusal(): ApiError {
    return refuse('fetch.timeout', `The download did not finish within ${this.ms / 1000} s`);
  }

  /** `work`, unless the deadline passes first (what cannot be cancelled, a name lookup, is left to finish). */
  race<T>(work: Promise<T>): Promise<T> {
    if (this.expired) return Promise.reject(this.refusal());
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => reject(this.refusal());
      this.signal.addEventListener('abort', onAbort, { once: true });
      work.then(
        (v) => {
          this.signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e: unknown) => {
          this.signal.removeEventListener('abort', onAbort);
          reject(e instanceof Error ? e : new Error(String(e)));
        },
      );
    });
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}

const familyOf = (address: string) => (isIP(address) === 6 ? 6 : 4);

export class ExternalFetch {
  private readonly resolve: Resolver;

  constructor(private readonly o: FetchOptions) {
    this.resolve = o.resolve ?? systemResolver;
  }

  /** Downloads `url` into the incoming folder; refusals are ApiErrors (422 fetch.*, or validation_failed for a URL that is none). */
  async download(url: string, hosts: readonly string[]): Promise<Fetched> {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw validation('url', 'not a URL');
    }
    if (u.username || u.password) throw validation('url', 'must not carry a user name or password');
    const deadline = new Deadline(this.o.timeoutMs);
    try {
      for (let redirects = 0; ; redirects++) {
        const res = await this.connect(u, hosts, deadline);
        if (REDIRECTS.has(res.statusCode ?? 0)) {
          res.destroy();
          const location = res.headers.location;
          if (!location) throw refuse('fetch.failed', `${hostOf(u)} answered ${res.statusCode} without a Location`);
          if (redirects + 1 > MAX_REDIRECTS) throw refuse('fetch.redirects', `More than ${MAX_REDIRECTS} redirects`);
          try {
            u = new URL(location, u);
          } catch {
            throw refuse('fetch.failed', `${hostOf(u)} redirected to something that is not a URL`);
          }
          // credentials a redirect names are never sent
          u.username = '';
          u.password = '';
          continue;
        }
        const status = res.statusCode ?? 0;
        if (status < 200 || status > 299) {
          res.destroy();
          throw refuse('fetch.failed', `${hostOf(u)} answered ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`);
        }
        const body = await this.save(res, hostOf(u), deadline);
        return {
          ...body,
          name: dispositionName(res.headers['content-disposition']) ?? pathName(u) ?? 'download',
          mimeType: mimeOf(res.headers['content-type']),
          host: hostOf(new URL(url)),
          finalHost: hostOf(u),
          redirects,
        };
      }
    } catch (e) {
      if (deadline.expired && !(e instanceof ApiError && e.code !== 'fetch.failed')) throw deadline.refusal();
      throw e;
    } finally {
      deadline.clear();
    }
  }

  /** The checks of one hop, then its request; answers the response with its body unread. */
  private async connect(u: URL, hosts: readonly string[], deadline: Deadline): Promise<IncomingMessage> {
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw refuse('fetch.scheme', `Only http: and https: URLs are fetched, not ${u.protocol}`);
    if (!hosts.length) throw refuse('fetch.host.notAllowed', "No host is on the instance's external-content list: fetching is off");
    if (!hostAllowed(u, hosts)) throw refuse('fetch.host.notAllowed', `${u.host} is not on the instance's external-content list`);
    const addresses = await this.addresses(u, deadline);
    // connect to the checked addresses and nothing else: Node asks this lookup instead of the resolver
    const lookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (options?.all) callback(null, addresses.map((address) => ({ address, family: familyOf(address) })));
      else callback(null, addresses[0], familyOf(addresses[0]!));
    }) as unknown as LookupFunction;
    const host = hostOf(u);
    const request = u.protocol === 'https:' ? https.request : http.request;
    const options: https.RequestOptions & { autoSelectFamily: boolean } = {
      method: 'GET',
      // a connection of its own, never one another fetch opened to another address
      agent: false,
      lookup,
      // the addresses in the order given (IPv4 first), the next tried when one does not answer
      autoSelectFamily: true,
      signal: deadline.signal,
      headers: { 'user-agent': 'judge (file fetch)', accept: '*/*', 'accept-encoding': 'identity' },
      // the certificate is checked against the name asked for, never the address connected to
      ...(u.protocol === 'https:' && isIP(host) === 0 ? { servername: host } : {}),
    };
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(u, options);
      req.on('response', (res) => {
        // until its body is piped (save), a failure of the connection must not go unheard
        res.on('error', () => undefined);
        resolve(res);
      });
      req.on('error', (e: NodeJS.ErrnoException) => {
        if (deadline.expired) reject(deadline.refusal());
        else reject(refuse('fetch.failed', `Could not fetch from ${u.host}: ${e.code ?? e.message}`));
      });
      req.end();
    });
  }

  /**
   * Every address of the URL's host, each checked: one forbidden address refuses the host, since
   * the connection could go to any of them. IPv4 ones first: a name such as localhost that has
   * both is reached where most servers listen.
   */
  private async addresses(u: URL, deadline: Deadline): Promise<string[]> {
    const host = hostOf(u).replace(/^\[(.*)\]$/, '$1');
    let found: string[];
    if (isIP(host)) found = [host];
    else {
      try {
        found = (await deadline.race(this.resolve(host))).map((a) => a.address);
      } catch (e) {
        if (e instanceof ApiError) throw e;
        throw refuse('fetch.failed', `The name ${host} did not resolve: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      if (!found.length) throw refuse('fetch.failed', `The name ${host} did not resolve`);
    }
    for (const address of found) {
      const cls = classifyAddress(address);
      if (!addressAllowed(cls, this.o.allowLoopback)) {
        throw refuse('fetch.address.forbidden', `${host} ${address === host ? 'is' : `resolves to ${address}, which is`} a ${cls} address, which files are never fetched from`);
      }
    }
    return [...found.filter((a) => isIP(a) === 4), ...found.filter((a) => isIP(a) === 6)];
  }

  /** Streams the body into a new file of the incoming folder, hashing and counting it; removed again on any failure. */
  private async save(res: IncomingMessage, host: string, deadline: Deadline): Promise<{ tempPath: string; sha256: string; sizeBytes: number }> {
    const max = this.o.maxBytes;
    const tooLarge = () => refuse('fetch.tooLarge', `The file is larger than the upload limit of ${max} bytes`);
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      res.destroy();
      throw tooLarge();
    }
    const tempPath = this.o.tempPath();
    await mkdir(dirname(tempPath), { recursive: true, mode: 0o750 });
    const hash = createHash('sha256');
    let size = 0;
    let over = false;
    const count = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > max) {
          over = true;
          done(tooLarge());
          return;
        }
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const file = createWriteStream(tempPath, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(res, count, file, { signal: deadline.signal });
    } catch (e) {
      await rm(tempPath, { force: true });
      if (over) throw tooLarge();
      if (deadline.expired) throw deadline.refusal();
      // the disk's failure (a full disk answers 507) is the server's, not the remote host's
      if (file.errored) throw file.errored;
      throw refuse('fetch.failed', `The download from ${host} broke off: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    return { tempPath, sha256: hash.digest('hex'), sizeBytes: size };
  }
}
