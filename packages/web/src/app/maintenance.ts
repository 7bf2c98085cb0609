import type { Health, MaintenanceLevel } from '@judge/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { keys } from '../api/keys';
import { MAINTENANCE_HINT as HINT } from '../api/maintenanceHint';
import { healthQuery } from '../clock/serverClock';

/** The level /health reports: it is answered even while closed, so it is the truth the banner shows. */
export function levelOfHealth(h: Health | undefined): MaintenanceLevel {
  return h?.maintenance ?? 'open';
}

/**
 * The installation's maintenance level, kept current by maintenanceChanged (live invalidation of
 * the health family), by refusals, and by asking again every 30 s while it is not open.
 */
export function useMaintenance(): MaintenanceLevel {
  const qc = useQueryClient();
  const q = useQuery({
    ...healthQuery,
    staleTime: 30_000,
    refetchInterval: (query) => (levelOfHealth(query.state.data) === 'open' ? false : 30_000),
  });
  useEffect(() => {
    const ask = () => void qc.invalidateQueries({ queryKey: keys.health });
    window.addEventListener(HINT, ask);
    return () => window.removeEventListener(HINT, ask);
  }, [qc]);
  return levelOfHealth(q.data);
}
