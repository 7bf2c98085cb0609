import { z } from 'zod';
import { Timestamp } from '../wire.js';
import { Ranking } from './judging.js';

// ---- public scoreboards and display links (decisions §23) ----

export const Medal = z.enum(['gold', 'silver', 'bronze']);

export const ScoreboardSeries = z.object({
  id: z.string(),
  rankingFreezeAt: Timestamp.optional(),
  rankingRevealAt: Timestamp.optional(),
});

/**
 * What a scoreboard page or a projector shows: the public view of the standings and what the room
 * needs around it. Everything in it comes from the public view: a result a freeze hides is in no member.
 */
export const Scoreboard = z.object({
  activity: z.object({ id: z.string(), slug: z.string(), name: z.string(), startDate: Timestamp.optional(), endDate: Timestamp.optional() }),
  serverTime: Timestamp.meta({ description: "The server's clock when the board was read, for a countdown on a screen whose clock may be wrong" }),
  series: z.array(ScoreboardSeries).meta({ description: 'The series the standings count, with their freeze and reveal instants' }),
  freeze: z
    .object({ at: Timestamp, revealAt: Timestamp.optional() })
    .optional()
    .meta({ description: 'The freeze in force now (the earliest of the counted series), absent when none is' }),
  awardRules: z
    .object({ gold: z.number().int(), silver: z.number().int(), bronze: z.number().int(), extraBronze: z.number().int() })
    .meta({ description: "The activity's medal counts (the judge's defaults where it sets none)" }),
  medals: z
    .array(z.object({ userId: z.string(), medal: Medal }))
    .meta({ description: 'Rows with a medal at their present rank (rows that scored nothing get none): provisional while the contest runs' }),
  firstSolves: z
    .array(z.object({ problemId: z.string(), userId: z.string(), solvedAt: Timestamp }))
    .meta({ description: 'Per problem, the row(s) that solved it first as the public view shows it' }),
  ranking: Ranking,
});
export type Scoreboard = z.infer<typeof Scoreboard>;

export const DisplayLink = z.object({
  token: z.string().optional().meta({ description: 'The secret of the display link (the page is /display/{token}); absent when the activity has none' }),
});
