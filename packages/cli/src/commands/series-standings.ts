import { ops, type Activity, type Series } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, type JsonOption } from '../output.js';
import { resolveActivity, resolveSeries } from '../resolve.js';
import { inZone, zonedInstant } from '../zoned-time.js';
import { sub } from './common.js';

/** A series with its activity, whose time zone its dates are shown in. */
export async function seriesWithActivity(c: JudgeClient, activity: string, which: string): Promise<{ a: Activity; s: Series }> {
  const a = await resolveActivity(c, activity);
  return { a, s: await resolveSeries(c, activity, which) };
}

/** Where the standings of a series stand, in words. */
function freezeState(s: Series, zone: string): string {
  const now = new Date().toISOString();
  if (!s.rankingFreezeAt) return 'not frozen';
  const freeze = inZone(s.rankingFreezeAt, zone);
  if (s.rankingRevealAt && s.rankingRevealAt <= now) return `revealed at ${inZone(s.rankingRevealAt, zone)} (frozen from ${freeze})`;
  const reveal = s.rankingRevealAt ? `, revealed at ${inZone(s.rankingRevealAt, zone)}` : '';
  return s.rankingFreezeAt <= now ? `frozen since ${freeze}${reveal}` : `freezes at ${freeze}${reveal}`;
}

async function update(c: JudgeClient, s: Series, body: { rankingFreezeAt?: string | null; rankingRevealAt?: string | null }): Promise<Series> {
  return c.call(ops.updateSeries, { params: { seriesId: s.id }, body });
}

export function seriesStandingsCommands(series: Command): void {
  sub(
    series,
    'freeze <activity> <series>',
    'Freeze the standings: participants see results up to the freeze only, managers everything. A reveal already past is undone.',
  )
    .option('--at <instant>', "when (RFC 3339; without an offset, in the activity's time zone; default now)", zonedInstant)
    .action(async (activity: string, which: string, o: JsonOption & { at?: string }) => {
      const c = await api();
      const { a, s: s0 } = await seriesWithActivity(c, activity, which);
      const now = new Date().toISOString();
      const revealed = !!s0.rankingRevealAt && s0.rankingRevealAt <= now;
      const s = await update(c, s0, { rankingFreezeAt: o.at ?? now, ...(revealed ? { rankingRevealAt: null } : {}) });
      emit(o, s, () => `${s.slug}: ${freezeState(s, a.timeZone)}.`);
    });

  sub(series, 'unfreeze <activity> <series>', 'Drop the freeze (and any reveal date): everyone sees the live standings again').action(
    async (activity: string, which: string, o: JsonOption) => {
      const c = await api();
      const { a, s: s0 } = await seriesWithActivity(c, activity, which);
      const s = await update(c, s0, { rankingFreezeAt: null, rankingRevealAt: null });
      emit(o, s, () => `${s.slug}: ${freezeState(s, a.timeZone)}.`);
    },
  );

  sub(series, 'reveal <activity> <series>', 'Reveal the final standings now: the freeze stays recorded, but everyone sees every result').action(
    async (activity: string, which: string, o: JsonOption) => {
      const c = await api();
      const { a, s: s0 } = await seriesWithActivity(c, activity, which);
      const now = new Date().toISOString();
      if (!s0.rankingFreezeAt) throw new CliError(`${s0.slug} is not frozen: its standings are already shown in full`);
      if (s0.rankingFreezeAt > now) {
        throw new CliError(`${s0.slug} freezes only at ${inZone(s0.rankingFreezeAt, a.timeZone)}: \`judgectl series unfreeze\` drops a freeze to come`);
      }
      const s = await update(c, s0, { rankingRevealAt: now });
      emit(o, s, () => `${s.slug}: ${freezeState(s, a.timeZone)}.`);
    },
  );
}
