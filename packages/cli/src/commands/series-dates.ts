import { ops, type Activity, type OperationInput, type Series } from '@judge/contract';
import { neverOpened, startMovedTo, type JudgeClient } from '@judge/sdk';
import { Option, type Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, fields, type JsonOption } from '../output.js';
import { resolveActivity } from '../resolve.js';
import { inZone, instantIn, NONE, zonedInstantOrNone, type OrNone } from '../zoned-time.js';
import { seriesState } from './activities.js';
import { positive, sub } from './common.js';
import { seriesWithActivity } from './series-standings.js';

type Body = OperationInput<typeof ops.updateSeries>['body'];


/** One series, its dates in its activity's time zone. */
export function seriesFields(s: Series, zone: string): string {
  return fields([
    ['id', s.id],
    ['slug', s.slug],
    ['name', s.name],
    ['start', inZone(s.startDate, zone)],
    ['end', inZone(s.endDate, zone)],
    ['freeze', inZone(s.rankingFreezeAt, zone)],
    ['reveal', inZone(s.rankingRevealAt, zone)],
    ['state', seriesState(s, zone)],
    ['problems', s.problems.map((p) => p.slug).join(', ')],
  ]);
}

const minutesBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 60_000);

/** What an activity's dates became, when a series write moved them (the server keeps them around their series). */
async function activityMoved(c: JudgeClient, before: Activity): Promise<string> {
  const after = await resolveActivity(c, before.id);
  if (after.startDate === before.startDate && after.endDate === before.endDate) return '';
  const z = after.timeZone;
  return `\nThe activity ${after.slug} now runs from ${inZone(after.startDate, z) || '(no start)'} to ${inZone(after.endDate, z) || '(no end)'}.`;
}

interface UpdateOptions extends JsonOption {
  name?: string;
  start?: OrNone<string>;
  end?: OrNone<string>;
  duration?: number;
  keepEnd?: boolean;
  freeze?: OrNone<string>;
  reveal?: OrNone<string>;
}

/** The update body: only what was given; a new start carries the other dates along unless told otherwise. */
function updateBody(s: Series, zone: string, o: UpdateOptions): Body {
  const start = o.start === undefined ? undefined : o.start === NONE ? null : instantIn(o.start, zone);
  const endGiven = o.end !== undefined || o.duration !== undefined;
  const body: Body = start ? startMovedTo(s, start, !!o.keepEnd || endGiven) : start === null ? { startDate: null } : {};
  if (o.name !== undefined) body.name = o.name;
  if (o.end !== undefined) body.endDate = o.end === NONE ? null : instantIn(o.end, zone);
  if (o.duration !== undefined) {
    const from = start ?? s.startDate;
    if (!from) throw new CliError(`${s.slug} has no start to count --duration from: give --start too, or --end`);
    body.endDate = new Date(Date.parse(from) + o.duration * 60_000).toISOString();
  }
  if (o.freeze !== undefined) body.rankingFreezeAt = o.freeze === NONE ? null : instantIn(o.freeze, zone);
  if (o.reveal !== undefined) body.rankingRevealAt = o.reveal === NONE ? null : instantIn(o.reveal, zone);
  return body;
}

export function seriesDatesCommands(series: Command): void {
  sub(
    series,
    'open <activity> <series>',
    'Open a series now (a rehearsal, or a late start): ends a pause, or moves a start still to come to now. ' +
      'The end, freeze and reveal move by as much, so the series keeps its length, unless --keep-end.',
  )
    .option('--keep-end', 'keep the end (and the freeze and reveal) where they are: the series gets longer or shorter')
    .action(async (activity: string, which: string, o: JsonOption & { keepEnd?: boolean }) => {
      const c = await api();
      const { a, s: found } = await seriesWithActivity(c, activity, which);
      const zone = a.timeZone;
      let s = found;
      const now = new Date().toISOString();
      if (s.endDate && s.endDate <= now) throw new CliError(`${s.slug} ended at ${inZone(s.endDate, zone)}: move it with \`judgectl series update --start\` first`);
      // paused before its start, it never opened: opening it now is a late start like any other
      if (neverOpened(s, now)) s = await c.call(ops.updateSeries, { params: { seriesId: s.id }, body: startMovedTo(s, now, !!o.keepEnd) });
      if (s.pausedAt) s = await c.call(ops.resumeSeries, { params: { seriesId: s.id }, body: { extendEnd: false } });
      const ends = s.endDate ? `; it ends at ${inZone(s.endDate, zone)}, in ${minutesBetween(now, s.endDate)} minutes` : '';
      const moved = await activityMoved(c, a);
      emit(o, s, () =>
        s.isOpen ? `${s.slug} is open${ends}.${moved}` : `${s.slug} is ${seriesState(s, zone)} (an unpublished activity's series stay closed: \`judgectl activities publish\`).${moved}`,
      );
    });

  sub(
    series,
    'update <activity> <series>',
    "Change a series' name and dates; what is not given stays. A new --start carries the end, freeze and reveal along (the series keeps its length) " +
      'unless --end, --duration or --keep-end is given. Dates without an offset are read in the activity\'s time zone. ' +
      "The activity's own start and end follow the series (docs/api.md, \"Series and the activity's dates\").",
  )
    .option('--name <name>', 'its name')
    .option('--start <instant>', "when it opens (RFC 3339; without an offset, in the activity's time zone); none: open from the start of the activity", zonedInstantOrNone)
    .addOption(new Option('--end <instant>', 'when it closes; none: never').argParser(zonedInstantOrNone).conflicts('duration'))
    .option('--duration <minutes>', 'how long it runs, counted from its (new) start', positive)
    .option('--keep-end', 'with --start: keep the end, freeze and reveal where they are')
    .option('--freeze <instant>', 'when the standings freeze; none: never', zonedInstantOrNone)
    .option('--reveal <instant>', 'when the frozen standings are revealed; none: not before `series reveal`', zonedInstantOrNone)
    .action(async (activity: string, which: string, o: UpdateOptions) => {
      const c = await api();
      const { a, s: s0 } = await seriesWithActivity(c, activity, which);
      const body = updateBody(s0, a.timeZone, o);
      if (!Object.keys(body).length) throw new CliError('nothing to change: give at least one of --name, --start, --end, --duration, --freeze, --reveal');
      const s = await c.call(ops.updateSeries, { params: { seriesId: s0.id }, body });
      const moved = await activityMoved(c, a);
      emit(o, s, () => `Updated ${s.slug}.\n${seriesFields(s, a.timeZone)}${moved}`);
    });
}
