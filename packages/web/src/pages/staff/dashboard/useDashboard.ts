import type { ParticipantActivity } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { useLive } from '../../../live/Live';
import { changesDashboard, throttle } from './live';

/** How often the figures are read without an event: runners connect and go quiet without one. */
const POLL_MS = 5_000;
/** At most one refetch a second however many events arrive (runners report progress several times a second). */
const EVENT_THROTTLE_MS = 1_000;

/**
 * The dashboard's figures (GET /manager/activities/{a}/dashboard), refetched when an event of the
 * activity arrives and every few seconds otherwise; only asked when the reader manages it.
 */
export function useDashboard(activity: ParticipantActivity, enabled: boolean) {
  const qc = useQueryClient();
  const { subscribe } = useLive();
  const slug = activity.slug;
  const id = activity.id;
  useEffect(() => {
    if (!enabled) return;
    const refetch = throttle(() => void qc.invalidateQueries({ queryKey: keys.dashboard(slug) }), EVENT_THROTTLE_MS);
    const unsubscribe = subscribe((frame) => {
      if (changesDashboard(frame, id)) refetch.signal();
    });
    return () => {
      unsubscribe();
      refetch.cancel();
    };
  }, [qc, subscribe, slug, id, enabled]);
  return useQuery({
    queryKey: keys.dashboard(slug),
    queryFn: () => call(ops.getActivityDashboard, { params: { idOrSlug: slug } }),
    enabled,
    refetchInterval: POLL_MS,
  });
}
