/** The cookie that carries a browser's session. */
export const SESSION_COOKIE = 'judge_session';

/**
 * Whether a cookie-authenticated request comes from the judge's own pages: its Origin, else its
 * Referer, must be the expected origin. Both REST and the socket hub ask this.
 */
export function originMatches(origin: string | undefined, referer: string | undefined, expected: string): boolean {
  if (origin) return origin === expected;
  if (referer) {
    try {
      return new URL(referer).origin === expected;
    } catch {
      return false;
    }
  }
  return false;
}

/**
 * Whether a cookie-authenticated unsafe request may go on (decisions §4). Its Origin, else its
 * Referer, must be the expected origin (a `null` Origin never is). With neither header it goes on
 * unless Sec-Fetch-Site says it came from another site: browsers send Origin on every
 * cross-origin write, and the SameSite=Lax cookie never travels cross-site, so what is left is a
 * same-origin request from a client that sends neither (the existing client of this interface).
 */
export function unsafeRequestAllowed(origin: string | undefined, referer: string | undefined, fetchSite: string | undefined, expected: string): boolean {
  if (origin || referer) return originMatches(origin, referer, expected);
  return fetchSite === undefined || fetchSite === 'same-origin';
}
