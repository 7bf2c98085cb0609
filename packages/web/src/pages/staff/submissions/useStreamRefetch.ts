import { useCallback, useRef } from 'react';
import { useLiveFrames } from '../../../live/Live';

/**
 * Refetches the stream when a submission of the activity changes (`submissionChanged`, which the
 * hub sends to holders of submission:read:all), one request at a time: during a contest several
 * such events arrive a second, and refetching on each would cancel the request before it answered.
 * An event that comes while a request runs asks for one more after it, so the last change is
 * always fetched.
 */
export function useStreamRefetch(activityId: string, refetch: () => Promise<unknown>): void {
  const running = useRef(false);
  const again = useRef(false);
  const latest = useRef(refetch);
  latest.current = refetch;
  const run = useCallback(async () => {
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    try {
      do {
        again.current = false;
        await latest.current().catch(() => undefined);
      } while (again.current);
    } finally {
      running.current = false;
    }
  }, []);
  useLiveFrames('submissionChanged', (data) => {
    if (data.activityId === activityId) void run();
  });
}
