import { z } from 'zod';
import { RankingType } from './content.js';
import { Ranking, RankingCell } from './judging.js';

export const CeremonyRow = z.object({
  userId: z.string(),
  userName: z.string(),
  solved: z.number().int(),
  penalty: z.number().int().optional(),
  points: z.number().optional(),
  tie: z.string().meta({ description: 'Equal for rows that share a rank: a screen numbers rows 1, 1, 3 by it' }),
  cells: z.array(RankingCell),
});

export const CeremonyStep = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('reveal'),
    at: z.number().int().meta({ description: 'The position (0-based) of the row being resolved' }),
    userId: z.string(),
    problemId: z.string().meta({ description: 'The assignment whose hidden submissions are revealed' }),
    to: z.number().int().meta({ description: 'The position the row moves to (≤ at)' }),
    row: CeremonyRow.meta({ description: 'The row after the reveal' }),
  }),
  z.object({
    kind: z.literal('award'),
    at: z.number().int(),
    userId: z.string(),
    awards: z.array(z.string()).meta({ description: 'The award keys the finished row holds (see the awards)' }),
  }),
]);

export const Ceremony = z.object({
  rankingType: RankingType,
  problems: Ranking.shape.problems,
  rows: z.array(CeremonyRow).meta({ description: 'The frozen standings the ceremony starts from, in order' }),
  steps: z.array(CeremonyStep),
  awards: z.array(z.object({ key: z.string(), citation: z.string(), userIds: z.array(z.string()) })),
  step: z.number().int().meta({ description: "The step the presenter is at (0: none taken): screens following the presenter show the standings after that many steps" }),
  finalized: z.boolean().meta({ description: 'The activity is finalised (its results can no longer change)' }),
});

export const CeremonyStepBody = z.object({ step: z.number().int().min(0).max(1_000_000) });
export const CeremonyStepState = z.object({ step: z.number().int() });

export type Ceremony = z.infer<typeof Ceremony>;
export type CeremonyRow = z.infer<typeof CeremonyRow>;
export type CeremonyStep = z.infer<typeof CeremonyStep>;
