import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { RESYNC_MS, subscribeTick, syncServerClock, tickSecond } from './serverClock';

/** The server's time, in whole seconds since the epoch, re-rendering once a second on the app's one timer. */
export function useServerSecond(): number {
  return useSyncExternalStore(subscribeTick, tickSecond);
}

/**
 * Keeps the server clock measured while the calling component is mounted: at once (from the
 * page's one /health answer when it is fresh), and every few minutes. A reconnected socket needs
 * nothing of its own here: the live provider then refetches every active query, the frame's health
 * query among them, and each health answer is a clock sample (after a sleep or a server restart
 * the local clock may have jumped).
 */
export function useServerClockSync(): void {
  const qc = useQueryClient();
  useEffect(() => {
    void syncServerClock(qc);
    const every = setInterval(() => void syncServerClock(qc, true), RESYNC_MS);
    return () => clearInterval(every);
  }, [qc]);
}
