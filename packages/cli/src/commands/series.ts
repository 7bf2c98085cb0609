import { ops } from '@judge/contract';
import type { Command } from 'commander';
import { api } from '../client.js';
import { emit, type JsonOption } from '../output.js';
import { resolveActivity, resolveProblem, resolveSeries } from '../resolve.js';
import { seriesState } from './activities.js';
import { inZone, zonedInstant } from '../zoned-time.js';
import { int, positive, sub } from './common.js';
import { seriesDatesCommands, seriesFields } from './series-dates.js';
import { seriesWithActivity } from './series-standings.js';

export function seriesCommands(program: Command): Command {
  const series = program.command('series').description('Series of an activity: create, open, update, pause, resume, shift; freeze, unfreeze and reveal its standings');

  sub(series, 'create <activity> <slug>', 'Add a series to an activity; without --start it opens at once (once the activity is published)')
    .requiredOption('--name <name>', 'its name')
    .option('--start <instant>', "when it opens (RFC 3339; without an offset, in the activity's time zone)", zonedInstant)
    .option('--end <instant>', 'when it closes', zonedInstant)
    .option('--freeze <instant>', 'when the ranking freezes', zonedInstant)
    .action(async (activity: string, slug: string, o: JsonOption & { name: string; start?: string; end?: string; freeze?: string }) => {
      const c = await api();
      const a = await resolveActivity(c, activity);
      const s = await c.call(ops.createSeries, {
        params: { idOrSlug: a.id },
        body: { slug, name: o.name, ...(o.start ? { startDate: o.start } : {}), ...(o.end ? { endDate: o.end } : {}), ...(o.freeze ? { rankingFreezeAt: o.freeze } : {}) },
      });
      emit(o, s, () => `Created the series ${s.slug} in ${a.slug}.\n${seriesFields(s, a.timeZone)}`);
    });

  seriesDatesCommands(series);

  sub(series, 'pause <activity> <series>', 'Stop taking submissions now')
    .option('--hide-problems', 'also hide the problems while paused')
    .action(async (activity: string, which: string, o: JsonOption & { hideProblems?: boolean }) => {
      const c = await api();
      const s0 = await resolveSeries(c, activity, which);
      const s = await c.call(ops.pauseSeries, { params: { seriesId: s0.id }, body: { hideProblems: !!o.hideProblems } });
      emit(o, s, () => `${s.slug} is paused${s.hideProblemsWhilePaused ? ' and its problems hidden' : ''}.`);
    });

  sub(series, 'resume <activity> <series>', 'Resume a paused series')
    .option('--extend-end', 'push its end (and ranking dates) back by the time it was paused')
    .action(async (activity: string, which: string, o: JsonOption & { extendEnd?: boolean }) => {
      const c = await api();
      const { a, s: s0 } = await seriesWithActivity(c, activity, which);
      const s = await c.call(ops.resumeSeries, { params: { seriesId: s0.id }, body: { extendEnd: !!o.extendEnd } });
      emit(o, s, () => `${s.slug} is ${seriesState(s, a.timeZone)}${s.endDate ? `; it ends at ${inZone(s.endDate, a.timeZone)}` : ''}.`);
    });

  sub(series, 'shift', 'Move every date of a series by a number of minutes (negative: earlier)')
    .argument('<activity>', 'the activity')
    .argument('<series>', 'the series')
    .argument('<minutes>', 'how far, e.g. 30 or -15', int)
    .action(async (activity: string, which: string, m: number, o: JsonOption) => {
      const c = await api();
      const { a, s: s0 } = await seriesWithActivity(c, activity, which);
      const s = await c.call(ops.shiftSeries, { params: { seriesId: s0.id }, body: { minutes: m } });
      emit(o, s, () => `Moved ${s.slug} by ${m} minutes.\n${seriesFields(s, a.timeZone)}`);
    });
  return series;
}

export function assignCommand(program: Command): void {
  sub(program, 'assign <activity> <series> <problem>', 'Attach a problem (slug or id) to a series, following its newest version')
    .option('--slug <slug>', "its slug in the activity (default: the problem's slug)")
    .option('--max-points <n>', 'points a full solution is worth', positive)
    .action(async (activity: string, which: string, problem: string, o: JsonOption & { slug?: string; maxPoints?: number }) => {
      const c = await api();
      const s0 = await resolveSeries(c, activity, which);
      const p = await resolveProblem(c, problem);
      const s = await c.call(ops.attachProblem, {
        params: { seriesId: s0.id },
        body: { problemId: p.id, ...(o.slug ? { slug: o.slug } : {}), ...(o.maxPoints !== undefined ? { maxPoints: o.maxPoints } : {}) },
      });
      const a = s.problems.find((x) => x.problemId === p.id && (!o.slug || x.slug.toLowerCase() === o.slug.toLowerCase())) ?? s.problems[s.problems.length - 1]!;
      emit(o, { assignment: a, series: s }, () => `Assigned ${p.slug} to ${activity}/${s.slug} as ${a.slug} (${a.id}).`);
    });
}
