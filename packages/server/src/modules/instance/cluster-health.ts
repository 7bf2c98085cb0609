import type { ClusterHealth, ThisServerHealth } from '@judge/contract';
import type { ClusterServer } from '../../cluster/servers.js';

/** What the cluster module (cluster/node.ts, ClusterNode.report) tells /health. */
export interface ClusterReport {
  self: { id: string; leader: boolean; lag: number | null };
  view: { servers: ClusterServer[]; leader: string | null; newestEventId: number };
}

/**
 * /health's `server` and `cluster` members. Health needs no sign-in, and a monitoring probe or a
 * load balancer needs to see without credentials whether the workers run somewhere (a leader),
 * whether a hub falls behind (lag) and whether a server went silent (heartbeat age), so those are
 * public; none is a secret (ids are random per start, versions are public already). Host names,
 * process ids and start times map the installation for an attacker and serve only whoever
 * operates it, so only administrators see them.
 */
export function clusterHealth(r: ClusterReport, engine: ClusterHealth['engine'], now: Date, administrator: boolean): { server: ThisServerHealth; cluster: ClusterHealth } {
  const lag = (n: number | null) => (n === null ? {} : { lag: n });
  return {
    server: { id: r.self.id, leader: r.self.leader, ...lag(r.self.lag) },
    cluster: {
      engine,
      ...(r.view.leader ? { leader: r.view.leader } : {}),
      ...(engine === 'postgres' ? { newestEventId: r.view.newestEventId } : {}),
      servers: r.view.servers.map((s) => ({
        id: s.id,
        version: s.version,
        leader: s.leader,
        ...lag(s.lag),
        heartbeatAgeMs: Math.max(0, now.getTime() - Date.parse(s.heartbeatAt)),
        ...(administrator ? { host: s.host, pid: s.pid, startedAt: s.startedAt } : {}),
      })),
    },
  };
}
