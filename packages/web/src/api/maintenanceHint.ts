import type { MaintenanceLevel } from '@judge/contract';
import { ApiProblem } from '@judge/sdk/browser';

export const MAINTENANCE_HINT = 'judge:maintenance';
const CODES: Record<string, MaintenanceLevel> = { 'server.maintenance': 'closed', 'server.draining': 'draining' };

/** The level a refusal reveals (503 server.maintenance or server.draining), if it is one. */
export function levelOfRefusal(e: unknown): MaintenanceLevel | null {
  return e instanceof ApiProblem && e.status === 503 ? (CODES[e.code] ?? null) : null;
}

/**
 * Tells the banner that a request was refused for maintenance, so it asks /health at once instead
 * of waiting for the socket (which a closed server no longer lets anyone join).
 */
export function hintMaintenance(e: unknown): void {
  if (levelOfRefusal(e)) window.dispatchEvent(new Event(MAINTENANCE_HINT));
}
