import type { DomainEvent } from './bus.js';

/**
 * Coalesces the standings' result signals (`rankingChanged` with `change: 'result'`): every
 * submission made or judged changes the standings of all its activity's members, so told one by
 * one, each judged submission would be a frame to every member and the frames would grow with
 * the square of the participants (bench/README.md, participants-load). Instead a result is held
 * for at most one interval; at its end, each activity's series gets one frame per audience: the
 * event itself when it was the only one, else the bare `{activityId, change: 'result', seriesId}`
 * that already means "refetch" to those a freeze hides the result from (docs/api.md, events.json).
 * Only these signals wait: the author's own verdict (submissionStateChanged, problemStatusChanged)
 * and every other event go out at once, and the announcer's `unfrozen` / `windowOpened` too.
 * Audiences are never merged: a frame goes to those the held events' common audience names, as
 * the hub decides when it delivers the frame.
 */
export class RankingSignals {
  /** Held results by activity, series and audience, in the order they first came. */
  private readonly held = new Map<string, DomainEvent[]>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** How long the first held result waits at most (setting socket.rankingIntervalMs); 0: none wait. */
    private readonly intervalMs: number,
    private readonly deliver: (e: DomainEvent) => void,
  ) {}

  /** Takes an event to hold and answers true, or answers false: the caller delivers it now. */
  hold(e: DomainEvent): boolean {
    if (this.intervalMs <= 0 || e.type !== 'rankingChanged') return false;
    const data = e.data as { activityId: string; change: string; seriesId?: string };
    if (data.change !== 'result') return false;
    const key = `${data.activityId}\u0000${data.seriesId ?? ''}\u0000${JSON.stringify(e.audience)}`;
    const list = this.held.get(key);
    if (list) list.push(e);
    else this.held.set(key, [e]);
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs).unref();
    return true;
  }

  /** Sends what is held now: one frame per activity, series and audience. Tests call it directly. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batches = [...this.held.values()];
    this.held.clear();
    for (const list of batches) this.deliver(list.length === 1 ? list[0]! : bare(list[0]!));
  }

  /** Drops what is held: the sockets are closing. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.held.clear();
  }
}

/** The signal without a result: the standings changed, refetch them. */
function bare(e: DomainEvent): DomainEvent {
  const { activityId, seriesId } = e.data as { activityId: string; seriesId?: string };
  return { type: e.type, audience: e.audience, data: (seriesId === undefined ? { activityId, change: 'result' } : { activityId, change: 'result', seriesId }) as DomainEvent['data'] };
}
