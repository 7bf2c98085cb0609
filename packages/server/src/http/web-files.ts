import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The types a built web app ships; anything else goes out as bytes, which nosniff keeps inert. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Text types worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.webmanifest', '.txt', '.map']);

/** Below this a gzip header costs about what it saves. */
const MIN_GZIP_BYTES = 1024;

/** A file larger than this is not kept in memory (a built app has none; a stray one must not fill it). */
const MAX_CACHED_BYTES = 16 * 1024 * 1024;

export interface WebFile {
  bytes: Buffer;
  /** The same bytes gzipped, when the type compresses and it pays. */
  gzip?: Buffer;
  etag: string;
  contentType: string;
}

interface Cached extends WebFile {
  mtimeMs: number;
  size: number;
}

/**
 * The files of one built web app directory, read once and kept with their gzip form and ETag. A
 * stat per request notices a rebuild (index.html keeps its name across builds), so a rebuilt app is
 * served without a restart.
 */
export class WebFiles {
  private readonly cache = new Map<string, Cached>();
  private realRoot: string | undefined;

  constructor(readonly root: string) {}

  /** Whether the directory holds a built app (its index.html). */
  built(): boolean {
    return this.file('/index.html') !== undefined;
  }

  /**
   * The file at a request path (already percent-decoded), or undefined when there is none or the
   * path would leave the directory, by `..` or by a symbolic link pointing out of it.
   */
  file(path: string): WebFile | undefined {
    if (path.includes('\0') || path.includes('\\') || !path.startsWith('/')) return undefined;
    if (path.split('/').some((seg) => seg === '..' || seg === '.')) return undefined;
    const full = this.root + path.split('/').join(sep);
    let st;
    try {
      st = statSync(full);
    } catch {
      return undefined;
    }
    if (!st.isFile()) return undefined;
    const hit = this.cache.get(full);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit;
    if (!this.inside(full)) return undefined;
    const loaded = load(full, st.mtimeMs);
    if (loaded.size <= MAX_CACHED_BYTES) this.cache.set(full, loaded);
    else this.cache.delete(full);
    return loaded;
  }

  /** Symbolic links are followed only while they stay under the directory. */
  private inside(full: string): boolean {
    try {
      this.realRoot ??= realpathSync(this.root);
      return realpathSync(full).startsWith(this.realRoot + sep);
    } catch {
      return false;
    }
  }
}

function load(full: string, mtimeMs: number): Cached {
  const bytes = readFileSync(full);
  const ext = extname(full).toLowerCase();
  const hash = createHash('sha256').update(bytes).digest('base64url').slice(0, 27);
  let gzip: Buffer | undefined;
  if (COMPRESSIBLE.has(ext) && bytes.length >= MIN_GZIP_BYTES) {
    const z = gzipSync(bytes, { level: 9 });
    if (z.length < bytes.length) gzip = z;
  }
  return {
    bytes,
    ...(gzip ? { gzip } : {}),
    etag: `"${hash}"`,
    contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream',
    mtimeMs,
    size: bytes.length,
  };
}
