import type { Health } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import type { QueryClient } from '@tanstack/react-query';
import { call } from '../api/client';
import { keys } from '../api/keys';
import { bestSample, sampleOffset, type OffsetSample } from './offset';

/**
 * The server's clock as this tab knows it. A contest clock must be right to the second on a lab PC
 * whose own clock is minutes off, so it never trusts Date.now() alone: it measures the offset to
 * the server from every GET /health answer (serverTime), taking the server's answer to stand for
 * the midpoint of the request, and keeps the best of the last few samples (the shortest round
 * trip, the least uncertain one). /health is one query of the cache, which the maintenance banner
 * reads too: a page load asks it once, not once for the banner and a burst for the clock.
 */

/** How often the offset is measured again while something shows a clock. */
export const RESYNC_MS = 5 * 60_000;
/** An answer this young is good enough for a clock that appears (the banner asked a moment ago). */
const FRESH_MS = 30_000;
/** The samples kept: a resync every few minutes, so these span a quarter of an hour. */
const KEPT = 3;

const STORED_OFFSET = 'judge.serverClockOffset';

/** The offset measured before a reload, so the clock is right from its first frame and not only after the first sync. */
function storedOffset(): number {
  const v = Number(sessionStorage.getItem(STORED_OFFSET));
  return Number.isFinite(v) ? v : 0;
}

// read when first needed, not when the module loads: the page's first script imports this module,
// and a tab's first use of sessionStorage waits on the browser, before the page's requests are sent
let offset: number | undefined;
const samples: OffsetSample[] = [];

/** Takes one measurement in: the offset becomes the best of the last few. */
function record(sample: OffsetSample): void {
  samples.push(sample);
  if (samples.length > KEPT) samples.shift();
  offset = bestSample(samples)!.offset;
  sessionStorage.setItem(STORED_OFFSET, String(Math.round(offset)));
  notify();
}

/** GET /health, its serverTime taken in as a clock sample: the query function of keys.health. */
export async function fetchHealth(): Promise<Health> {
  const sentAt = Date.now();
  const h = await call(ops.health);
  record(sampleOffset(sentAt, Date.parse(h.serverTime), Date.now()));
  return h;
}

export const healthQuery = { queryKey: keys.health, queryFn: fetchHealth } as const;

/**
 * Measures the offset through the health query: an answer younger than FRESH_MS (or one on its
 * way) is used as it is, unless `again` (the socket came back: the local clock may have jumped).
 */
export async function syncServerClock(qc: QueryClient, again = false): Promise<void> {
  try {
    await qc.fetchQuery({ ...healthQuery, staleTime: again ? 0 : FRESH_MS });
  } catch {
    // unreachable for now: keep the last offset; the next resync or reconnect tries again
  }
}

/** The server's time now, in ms since the epoch. */
export function serverNow(): number {
  offset ??= storedOffset();
  return Date.now() + offset;
}

// ---- one ticking timer for the whole app, running while anything shows a clock ----

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;
/** The server second last announced, so every clock on screen changes on the same tick (set when the first listener comes). */
let second = 0;

function notify(): void {
  second = Math.floor(serverNow() / 1000);
  for (const l of listeners) l();
}

/** Schedules the next tick just after the server's next whole second, so the display never lags a second. */
function schedule(): void {
  const wait = 1000 - (serverNow() % 1000) + 5;
  timer = setTimeout(() => {
    notify();
    schedule();
  }, wait);
}

export function subscribeTick(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) {
    second = Math.floor(serverNow() / 1000);
    schedule();
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
  };
}

/** The server second of the last tick (a stable snapshot for useSyncExternalStore); read afresh while nothing ticks. */
export function tickSecond(): number {
  if (listeners.size === 0) second = Math.floor(serverNow() / 1000);
  return second;
}
