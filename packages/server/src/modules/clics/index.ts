/** The CLICS Contest API (2023-06) under /api/clics, read only (decisions §25, docs/clics.md). */
export { clicsMiddleware, CLICS_BASE } from './router.js';
export type { ClicsServices } from './contest.js';
export { ClicsEventLog } from './event-log.js';
export { ClicsFeeds } from './event-feed.js';
