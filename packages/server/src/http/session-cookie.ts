import { SESSION_COOKIE } from '../auth/origin.js';
import type { Ctx } from './context.js';

/**
 * Whether the session cookie is `Secure`. The public URL decides when there is one: behind a proxy
 * that ends TLS the request reaching us is plain http, yet every browser talks https, and a cookie
 * without `Secure` would also be sent over any plain-http request to that host. An http public URL
 * keeps it off (a browser would drop a Secure cookie there). Without a public URL the connection
 * itself (or the trusted proxy's X-Forwarded-Proto) says.
 */
export function sessionCookieSecure(publicUrl: string, ctx: Pick<Ctx, 'secure'>): boolean {
  return publicUrl ? new URL(publicUrl).protocol === 'https:' : ctx.secure;
}

function secured(ctx: Ctx, publicUrl: string): boolean {
  const secure = sessionCookieSecure(publicUrl, ctx);
  // the cookies library refuses a Secure cookie on a connection it believes is plain; here TLS ends
  // at the proxy the public URL names, so tell it
  if (secure) ctx.cookies.secure = true;
  return secure;
}

/** Remembers a browser that passed the second factor (two-factor.ts); sent only with sign-in and the 2FA page's calls. */
export const MACHINE_COOKIE = 'judge_2fa';

export function setSessionCookie(ctx: Ctx, value: string, opts: { publicUrl: string; maxAgeMs?: number | undefined }, name = SESSION_COOKIE): void {
  ctx.cookies.set(name, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secured(ctx, opts.publicUrl),
    path: '/',
    overwrite: true,
    ...(opts.maxAgeMs !== undefined ? { maxAge: opts.maxAgeMs } : {}),
  });
}

/** Removes the cookie with the attributes it was set with, so the browser replaces it. */
export function clearSessionCookie(ctx: Ctx, publicUrl: string, name = SESSION_COOKIE): void {
  ctx.cookies.set(name, null, { httpOnly: true, sameSite: 'lax', secure: secured(ctx, publicUrl), path: '/', overwrite: true });
}
