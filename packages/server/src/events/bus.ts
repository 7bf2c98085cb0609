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

export type BusMessage =
  | { kind: 'event'; event: DomainEvent }
  | { kind: 'sessionsEnded'; sessionIds: string[]; reason: 'logout' | 'blocked' | 'passwordChanged' | 'ended' | 'expired' };

type Listener = (m: BusMessage) => void;

/** In-process bus; messages are published only after the transaction that made them commits. */
export class EventBus {
  private readonly listeners = new Set<Listener>();

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  publish(messages: readonly BusMessage[]): void {
    for (const m of messages) for (const fn of this.listeners) fn(m);
  }
}

export function event<T extends EventType>(type: T, data: EventData<T>, audience: Audience): DomainEvent<T> {
  return { type, data, audience };
}
