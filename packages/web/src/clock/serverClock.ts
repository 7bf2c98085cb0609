import { ops } from '@judge/sdk/browser';
import { call } from '../api/client';
import { bestSample, sampleOffset, type OffsetSample } from './offset';

/**
 * The server's clock as this tab knows it. A contest clock must be right to the second on a lab PC
 * whose own clock is minutes off, so it never trusts Date.now() alone: it measures the offset to
 * the server from GET /health (serverTime), taking the server's answer to stand for the midpoint
 * of the request, and keeps the sample with the shortest round trip (the least uncertain one).
 */

/** How often the offset is measured again while something shows a clock. */
export const RESYNC_MS = 5 * 60_000;
const SAMPLES = 3;

let offset = 0;
let syncing: Promise<void> | null = null;

async function measure(): Promise<OffsetSample> {
  const sentAt = Date.now();
  const h = await call(ops.health);
  return sampleOffset(sentAt, Date.parse(h.serverTime), Date.now());
}

/** Measures the offset again (a few samples, one after the other); concurrent calls share one run. */
export function syncServerClock(): Promise<void> {
  syncing ??= (async () => {
    try {
      const samples: OffsetSample[] = [];
      for (let i = 0; i < SAMPLES; i++) samples.push(await measure());
      const best = bestSample(samples);
      if (best) {
        offset = best.offset;
        notify();
      }
    } catch {
      // unreachable for now: keep the last offset; the next resync or reconnect tries again
    } finally {
      syncing = null;
    }
  })();
  return syncing;
}

/** The server's time now, in ms since the epoch. */
export function serverNow(): number {
  return Date.now() + offset;
}

// ---- one ticking timer for the whole app, running while anything shows a clock ----

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;
/** The server second last announced, so every clock on screen changes on the same tick. */
let second = Math.floor(serverNow() / 1000);

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
  if (listeners.size === 1) schedule();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
  };
}

/** The server second of the last tick (a stable snapshot for useSyncExternalStore). */
export function tickSecond(): number {
  return second;
}
