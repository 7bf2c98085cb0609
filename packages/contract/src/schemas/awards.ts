import { z } from 'zod';
import { Timestamp } from '../wire.js';

/**
 * The awards of a finalised activity (decisions §24). `key` is the CLICS award id: `winner`,
 * `gold-medal`, `silver-medal`, `bronze-medal`, `first-to-solve-<problem slug>`,
 * `group-winner-<group>`.
 */
export const ActivityAward = z.object({
  key: z.string(),
  citation: z.string(),
  userIds: z.array(z.string()),
  userNames: z.array(z.string()).meta({ description: "The awardees' display names, in the order of userIds" }),
  adjusted: z.boolean().meta({ description: 'Staff changed the citation; it is kept when the awards are computed again' }),
});
export type ActivityAward = z.infer<typeof ActivityAward>;

/**
 * What keeps an activity from being finalised, as the `errors` of a 409 activity.finalize.blocked:
 * each key present holds one sentence saying it.
 */
export const FINALIZE_BLOCKERS = ['notEnded', 'unjudged', 'unanswered'] as const;
export type FinalizeBlocker = (typeof FINALIZE_BLOCKERS)[number];

export const FinalizeBlockers = z
  .object({ notEnded: z.array(z.string()).optional(), unjudged: z.array(z.string()).optional(), unanswered: z.array(z.string()).optional() })
  .meta({ description: 'Each key that applies holds one sentence saying it (the `errors` a refused finalisation gives)' });

export const ActivityAwards = z.object({
  finalizedAt: Timestamp.optional().meta({ description: 'When the activity was finalised; absent while it is not (staff may still see the last awards)' }),
  awards: z.array(ActivityAward),
  finalizeBlockers: FinalizeBlockers.optional().meta({
    description: 'To holders of activity:update while the activity is not finalised: what keeps it from being finalised now; absent when nothing does',
  }),
});
export type ActivityAwards = z.infer<typeof ActivityAwards>;

export const AWARD_CITATION_MAX = 200;

export const AwardCitationRequest = z.object({
  citation: z.string().trim().min(1).max(AWARD_CITATION_MAX),
});

