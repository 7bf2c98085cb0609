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
