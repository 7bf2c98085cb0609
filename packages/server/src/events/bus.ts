import type { EventData, EventType, Permission } from '@judge/contract';

/**
 * Who may receive an event. `permission`: holders of the key in the activity (or system-wide, or
 * anywhere) who also hold every `alsoRequires` key and not the `unless` key there, plus the listed
 * users (whatever they hold); `users`: exactly these; `signedIn`: every signed-in session.
 */
export type Audience =
  | { kind: 'permission'; key: Permission; activityId?: string | null; anywhere?: boolean; alsoUsers?: string[]; alsoRequires?: Permission[]; unless?: Permission }
  | { kind: 'users'; userIds: string[] }
  | { kind: 'signedIn' };

export interface DomainEvent<T extends EventType = EventType> {
  type: T;
  data: EventData<T>;
  audience: Audience;
}

/**
 * What a committed write changed that other servers keep in memory (cluster/cache-notes.ts). The
 * writing server updates its own caches after the commit as it always did; these tell the others.
 */
export type CacheNote =
  | { what: 'permissions' }
  | { what: 'settings' }
  | { what: 'user'; userId: string }
  | { what: 'submission'; activityId: string; userId: string; seriesProblemId: string }
  /** A contest's CLICS event feed grew (modules/clics/event-log.ts): its open feeds read the new rows. */
  | { what: 'clicsEvents'; activityId: string };

export type BusMessage =
  | { kind: 'event'; event: DomainEvent }
  | { kind: 'sessionsEnded'; sessionIds: string[]; reason: 'logout' | 'blocked' | 'passwordChanged' | 'ended' | 'expired' }
  /** Only on PostgreSQL, from the event log: `origin` is the server that wrote it. */
  | { kind: 'cache'; note: CacheNote; origin: string };

type Listener = (m: BusMessage) => void;

/** In-process bus; messages are published only after the transaction that made them commits. */
export class EventBus {
  private readonly listeners = new Map<Listener, (() => boolean) | undefined>();

  /**
   * `wants`, when given, says whether the listener would do anything with an event right now (the
   * socket hub: only while a socket is open); without it the listener always wants them.
   */
  subscribe(fn: Listener, wants?: () => boolean): () => void {
    this.listeners.set(fn, wants);
    return () => this.listeners.delete(fn);
  }

  /**
   * Whether an event published now would reach anyone. Writers may skip building an event's
   * payload when not: events are published in the same synchronous run as the commit that made
   * them, so nobody can start listening in between.
   */
  get listening(): boolean {
    for (const wants of this.listeners.values()) if (!wants || wants()) return true;
    return false;
  }

  publish(messages: readonly BusMessage[]): void {
    for (const m of messages) for (const fn of this.listeners.keys()) fn(m);
  }
}

export function event<T extends EventType>(type: T, data: EventData<T>, audience: Audience): DomainEvent<T> {
  return { type, data, audience };
}
