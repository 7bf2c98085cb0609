import type { BusMessage, CacheNote, EventBus } from '../events/bus.js';

/** What each kind of note refreshes on this server. */
export interface CacheOwners {
  permissions(): void;
  settings(): void;
  /** An account's standing changed (blocked, expired): its sessions are checked again. */
  user(userId: string): void;
  /** Sessions that ended anywhere stop authenticating here too. */
  sessionsEnded(sessionIds: string[]): void;
  submission(n: Extract<CacheNote, { what: 'submission' }>): void;
  /** A contest's CLICS event feed grew on the server that writes it. */
  clicsEvents(activityId: string): void;
}

/**
 * Keeps this server's caches true to writes made on the other servers of a cluster (docs/storage.md,
 * "Caches"). A write's notes travel in the event log ahead of its events, so a server applies them
 * in commit order, at most a notification's delay (a second if one is lost) after the commit, and
 * before it dispatches the events they bear on. The writer refreshed its own caches right after its
 * commit, but its log reader may hand it the write's rows before that hook ran (the rows are visible
 * once COMMIT is, and its answer and the notification race): so it applies its own notes too, all
 * but the submission note, whose refresh recomputes standings rather than dropping a cache. On
 * SQLite there is one server and no note is ever published.
 */
export function applyCacheNotes(bus: Pick<EventBus, 'subscribe'>, self: string, owners: CacheOwners): () => void {
  return bus.subscribe((m: BusMessage) => {
    if (m.kind === 'sessionsEnded') owners.sessionsEnded(m.sessionIds);
    if (m.kind !== 'cache') return;
    const n = m.note;
    if (m.origin === self && n.what === 'submission') return;
    if (n.what === 'permissions') owners.permissions();
    else if (n.what === 'settings') owners.settings();
    else if (n.what === 'user') owners.user(n.userId);
    else if (n.what === 'clicsEvents') owners.clicsEvents(n.activityId);
    else owners.submission(n);
  });
}
