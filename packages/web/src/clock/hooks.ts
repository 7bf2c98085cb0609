import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useLive } from '../live/Live';
import { RESYNC_MS, subscribeTick, syncServerClock, tickSecond } from './serverClock';

/** The server's time, in whole seconds since the epoch, re-rendering once a second on the app's one timer. */
export function useServerSecond(): number {
  return useSyncExternalStore(subscribeTick, tickSecond);
}

/**
 * Keeps the server clock measured while the calling component is mounted: at once, every few
 * minutes, and whenever the event socket reconnects (after a sleep or a server restart the
 * local clock may have jumped).
 */
export function useServerClockSync(): void {
  const { state } = useLive();
  const was = useRef(state);
  useEffect(() => {
    void syncServerClock();
    const every = setInterval(() => void syncServerClock(), RESYNC_MS);
    return () => clearInterval(every);
  }, []);
  useEffect(() => {
    if (state === 'open' && was.current !== 'open') void syncServerClock();
    was.current = state;
  }, [state]);
}
