import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Ctx, RequestState } from './context.js';
import { WebFiles, type WebFile } from './web-files.js';

/**
 * The policy of the app's pages. Styles may be inline because KaTeX and CodeMirror set style
 * attributes; frames may be this origin for PDF statements served by the files route; the event
 * socket is named by its scheme and host as well as by 'self' for browsers whose 'self' predates
 * CSP 3's rule that it covers ws: and wss: of the same host.
 */
function appPolicy(host: string | undefined): string {
  const sockets = host ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${sockets}`,
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** A Host header safe to repeat in a policy: a name or address with an optional port, nothing else. */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** Vite's output names: `name-<hash>.ext` under assets/, the hash at least six URL-safe characters. */
const HASHED_ASSET = /^\/assets\/(?:[^/]+\/)*[^/]+[-.][A-Za-z0-9_-]{6,}\.[A-Za-z0-9]+$/;

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Judge: the web app is not built</title></head>
<body>
<h1>The web app is not built</h1>
<p>The judge is running and its API answers under <a href="/api/v1/health">/api/v1/</a>, but the pages for the browser have not been built.</p>
<p>In the judge's folder, run <code>pnpm build</code> (<code>./install.sh</code> does it too), or point the <code>web.dir</code> setting (<code>JUDGE_WEB_DIR</code>) at a built app; then reload this page.</p>
</body>
</html>
`;

function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

function decodedPath(ctx: Ctx): string | undefined {
  try {
    return decodeURIComponent(ctx.path);
  } catch {
    return undefined;
  }
}

/** Whether the client already holds this file: its ETag, in either encoding, in If-None-Match. */
function fresh(ctx: Ctx, f: WebFile): boolean {
  const inm = ctx.get('if-none-match');
  if (!inm) return false;
  const held = inm.split(',').map((t) => t.trim().replace(/^W\//, ''));
  return held.includes('*') || held.includes(f.etag) || held.includes(gzipEtag(f.etag));
}

const gzipEtag = (etag: string) => `${etag.slice(0, -1)}-gz"`;

function send(ctx: Ctx, f: WebFile, cacheControl: string): void {
  const host = ctx.host;
  ctx.set('Content-Security-Policy', appPolicy(HOST.test(host) ? host : undefined));
  ctx.set('Cache-Control', cacheControl);
  const gzip = f.gzip && ctx.acceptsEncodings('gzip', 'identity') === 'gzip' ? f.gzip : undefined;
  if (f.gzip) ctx.vary('Accept-Encoding');
  ctx.set('ETag', gzip ? gzipEtag(f.etag) : f.etag);
  if (fresh(ctx, f)) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  ctx.status = 200;
  ctx.type = f.contentType;
  if (gzip) ctx.set('Content-Encoding', 'gzip');
  ctx.body = gzip ?? f.bytes;
}

/**
 * Serves the built web app at `/` for every GET or HEAD the API did not answer: its files, and
 * index.html for any other path outside `/api/` so that the app's deep links load. Hashed assets
 * are cached for good; everything else is revalidated by ETag. A missing asset is a 404, never the
 * page, so a stale page asking for an old bundle fails visibly rather than parsing HTML as script.
 */
export function webApp(dir: string, log: Logger): Koa.Middleware<RequestState> {
  const files = new WebFiles(dir);
  if (!files.built()) log.warn({ dir }, 'the web app is not built: `/` shows how to build it (pnpm build) until it is');
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || isApiPath(ctx.path)) return next();
    const path = decodedPath(ctx);
    // `..`, `.`, NUL and backslashes never name a file of the app: refused outright, not given the page
    if (path === undefined || isApiPath(path) || /(^|\/)\.\.?(\/|$)|[\0\\]/.test(path)) return next();
    const f = path.endsWith('/') ? undefined : files.file(path);
    if (f) return send(ctx, f, HASHED_ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (path.startsWith('/assets/')) return next();
    const index = files.file('/index.html');
    if (index) return send(ctx, index, 'no-cache');
    // the API's own strict policy stays: this page needs no script, style or image
    ctx.status = 503;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = NOT_BUILT_PAGE;
  };
}
