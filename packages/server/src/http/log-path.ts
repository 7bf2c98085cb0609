/**
 * The path as the request log writes it: a display link's secret (decisions §23) stands in the
 * path of its page and of its API reads, and whoever reads the log must not be able to open the
 * display with it, so it is written as `…`.
 */
export function loggedPath(path: string): string {
  return path.replace(/^(\/display\/|\/api\/v1\/displays\/)[^/]+/i, '$1…');
}
