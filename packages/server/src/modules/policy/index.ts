/**
 * The access policy every area asks: who may see or manage an activity, and who hears of it.
 * One home, so that REST reads, writes and the events they send agree on it.
 */
export {
  activityViewers,
  canManage,
  canSeeActivity,
  findActivity,
  isMember,
  managedActivity,
  managerAudience,
  participantAudience,
  readActivity,
  requireNotArchived,
  seesActivity,
  visibleActivity,
  type ActivityRow,
} from './activities.js';
export { requireNotFinalized, requireResultsOpen, requireScoringKept } from './finalized.js';
