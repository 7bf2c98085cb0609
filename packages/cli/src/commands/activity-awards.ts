import { ops, type ActivityAwards } from '@judge/contract';
import { ApiProblem } from '@judge/sdk';
import { InvalidArgumentError, type Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, table, when, type JsonOption } from '../output.js';
import { resolveActivity } from '../resolve.js';
import { sub } from './common.js';

/** The blockers of a refused finalisation (activity.finalize.blocked), one line each. */
function blockersOf(e: ApiProblem): string[] {
  return Object.values(e.errors ?? {}).flat();
}

/** Medal counts as `gold,silver,bronze[,extraBronze]`, or `default` for the judge's own. */
function medalCounts(v: string): { gold: number; silver: number; bronze: number; extraBronze: number } | null {
  if (v.trim().toLowerCase() === 'default') return null;
  const n = v.split(',').map((x) => x.trim());
  if ((n.length !== 3 && n.length !== 4) || n.some((x) => !/^\d{1,4}$/.test(x))) throw new InvalidArgumentError('give gold,silver,bronze or gold,silver,bronze,extraBronze (whole numbers), or default.');
  const [gold, silver, bronze, extraBronze = 0] = n.map(Number);
  return { gold: gold!, silver: silver!, bronze: bronze!, extraBronze };
}

/** The awards as a table: key, citation (marked when staff changed it), who. */
export function awardsTable(r: ActivityAwards): string {
  const blockers = Object.values(r.finalizeBlockers ?? {}).flat();
  const before = blockers.length ? `Before it can be finalised:\n${blockers.map((b) => `  - ${b}`).join('\n')}\n` : '';
  if (!r.awards.length) return `${before}No awards (the activity is not finalised, or nobody earned one).`;
  const head = r.finalizedAt ? `Finalised at ${when(r.finalizedAt)}.` : 'Not finalised: these are the awards of the last finalisation.';
  return `${before}${head}\n${table(['award', 'citation', 'adjusted', 'awarded to'], r.awards.map((a) => [a.key, a.citation, a.adjusted, a.userNames.join(', ')]))}`;
}

/** `activities display-link`: the room's screen link, shown, made anew, or removed (decisions §23). */
function displayLinkCommand(activities: Command): void {
  sub(
    activities,
    'display-link <activity>',
    'The display link: a secret address showing the public scoreboard on a screen nobody signs in on, even while the scoreboard is not public. ' +
      'Without options it shows the link; --rotate makes a new one (the old one stops at once, open screens too); --remove ends it',
  )
    .option('--rotate', 'make a new link (the first one, if there is none)')
    .option('--remove', 'remove the link')
    .action(async (activity: string, o: JsonOption & { rotate?: boolean; remove?: boolean }) => {
      if (o.rotate && o.remove) throw new CliError('give --rotate or --remove, not both');
      const c = await api();
      const a = await resolveActivity(c, activity);
      const params = { idOrSlug: a.id };
      const r = o.remove
        ? (await c.call(ops.removeDisplayLink, { params }), {})
        : o.rotate
          ? await c.call(ops.rotateDisplayLink, { params })
          : await c.call(ops.getDisplayLink, { params });
      const url = r.token ? `${c.baseUrl}/display/${r.token}` : undefined;
      emit(o, { ...r, ...(url ? { url } : {}) }, () =>
        url ? `${a.slug}: ${url}\nAnyone with this address sees the public scoreboard; \`--rotate\` replaces it.` : `${a.slug} has no display link${o.remove ? ' now' : ''} (\`--rotate\` makes one).`,
      );
    });
}

/** `activities finalize|reopen|awards|award-citation|medals|display-link` (decisions §23, §24). */
export function activityAwardsCommands(activities: Command): void {
  displayLinkCommand(activities);
  sub(activities, 'finalize <activity>', 'Declare the standings final and compute the awards. Refused, saying why, until the activity has ended, every submission is judged and every question answered')
    .action(async (activity: string, o: JsonOption) => {
      const c = await api();
      const a = await resolveActivity(c, activity);
      try {
        const r = await c.call(ops.finalizeActivity, { params: { idOrSlug: a.id } });
        const awards = await c.call(ops.listActivityAwards, { params: { idOrSlug: a.id } });
        emit(o, { activity: r, awards: awards.awards }, () => `Finalised ${r.slug} at ${when(r.finalizedAt)}.\n${awardsTable(awards)}`);
      } catch (e) {
        if (o.json || !(e instanceof ApiProblem) || e.code !== 'activity.finalize.blocked') throw e;
        throw new CliError(`${a.slug} cannot be finalised yet:\n${blockersOf(e).map((b) => `  - ${b}`).join('\n')}`);
      }
    });

  sub(activities, 'reopen <activity>', 'Undo the finalisation: the standings may change again; the awards stay until it is finalised again').action(async (activity: string, o: JsonOption) => {
    const c = await api();
    const a = await resolveActivity(c, activity);
    const r = await c.call(ops.reopenActivity, { params: { idOrSlug: a.id } });
    emit(o, r, () => `Reopened ${r.slug}: its standings are no longer final.`);
  });

  sub(activities, 'awards <activity>', 'The awards: winner, medals, first to solve each problem, group winners').action(async (activity: string, o: JsonOption) => {
    const c = await api();
    const r = await c.call(ops.listActivityAwards, { params: { idOrSlug: activity } });
    emit(o, r, () => awardsTable(r));
  });

  sub(activities, 'award-citation <activity> <key> <text>', "Change an award's citation (kept when the awards are computed again)").action(
    async (activity: string, key: string, text: string, o: JsonOption) => {
      const c = await api();
      const r = await c.call(ops.updateActivityAward, { params: { idOrSlug: activity, key }, body: { citation: text } });
      emit(o, r, () => `${r.key}: ${r.citation}`);
    },
  );

  sub(activities, 'medals <activity> <counts>', 'Medal counts for the awards: gold,silver,bronze[,extraBronze], e.g. 4,4,4,1; default: the judge\'s own (4,4,4)').action(
    async (activity: string, counts: string, o: JsonOption) => {
      const awardRules = medalCounts(counts);
      const c = await api();
      const a = await resolveActivity(c, activity);
      const r = await c.call(ops.updateActivity, { params: { idOrSlug: a.id }, body: { slug: a.slug, awardRules } });
      const m = r.awardRules;
      emit(o, r, () => `${r.slug}: ${m.gold} gold, ${m.silver} silver, ${m.bronze} bronze, ${m.extraBronze} extra bronze.`);
    },
  );
}
