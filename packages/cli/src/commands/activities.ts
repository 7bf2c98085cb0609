import { ops, type Activity, type Series } from '@judge/contract';
import { Option, type Command } from 'commander';
import { api } from '../client.js';
import { emit, fields, plural, table, type JsonOption } from '../output.js';
import { allPages, resolveActivity } from '../resolve.js';
import { inZone, zonedInstant } from '../zoned-time.js';
import { sub } from './common.js';

export function seriesState(s: Series, zone = 'UTC'): string {
  if (s.pausedAt) return `paused since ${inZone(s.pausedAt, zone)}${s.hideProblemsWhilePaused ? ' (problems hidden)' : ''}`;
  if (s.isOpen) return 'open';
  const now = new Date().toISOString();
  if (s.startDate && s.startDate > now) return 'not started';
  if (s.endDate && s.endDate <= now) return 'ended';
  return 'closed';
}

/** Series in a table, their dates in the activity's time zone. */
export function seriesTable(list: Series[], zone: string): string {
  return table(
    ['slug', 'name', 'start', 'end', 'freeze', 'reveal', 'state', 'problems'],
    list.map((s) => [s.slug, s.name, inZone(s.startDate, zone), inZone(s.endDate, zone), inZone(s.rankingFreezeAt, zone), inZone(s.rankingRevealAt, zone), seriesState(s, zone), s.problems.length]),
  );
}

/** Whether participants see an attachment of their judgings (the compiler's output unless set otherwise, decisions §8). */
const shown = (a: Activity, name: string) => (a.attachmentVisibility.find((v) => v.name === name)?.visibility ?? (name === 'compile' ? 'participant' : 'managersOnly')) === 'participant';

export function activityFields(a: Activity): string {
  return fields([
    ['id', a.id],
    ['slug', a.slug],
    ['name', a.name],
    ['type', a.type],
    ['ranking', a.rankingType],
    ['time zone', a.timeZone],
    ['start', inZone(a.startDate, a.timeZone)],
    ['end', inZone(a.endDate, a.timeZone)],
    ['join', `${a.joinPolicy}${a.joinPassword ? ` (password ${a.joinPassword})` : ''}`],
    ['unlisted', a.unlisted],
    ['published', a.publishedAt ? inZone(a.publishedAt, a.timeZone) : 'no'],
    ['archived', a.archivedAt ? inZone(a.archivedAt, a.timeZone) : 'no'],
    ['participants', a.participantCount],
    ['questions', a.modules.questions],
    ['printouts', a.modules.printouts],
    ['score visibility', a.scoreVisibility],
    ['compile output shown', shown(a, 'compile')],
    ['test results shown', shown(a, 'details')],
    ['judge log shown', shown(a, 'log')],
    ['ended series problems', a.hideEndedSeriesProblems ? 'hidden' : 'shown'],
    ['group members shown', a.showGroupMembers],
    ['public scoreboard', a.publicScoreboard],
    ['max submissions', a.maxSubmissionsPerProblem ?? 'no cap'],
    ['max upload bytes', a.maxUploadBytes],
    ['max attachments', a.maxAttachments],
    ['runner tags', a.runnerTags.join(', ')],
    ['props', a.props && Object.keys(a.props).length ? JSON.stringify(a.props) : ''],
  ]);
}

export function activitiesCommands(program: Command): Command {
  const activities = program
    .command('activities')
    .description('Contests and courses: create, list, show, update, publish, archive, delete; members and managers');
  createCommand(activities);
  readAndChangeCommands(activities);
  return activities;
}

function createCommand(activities: Command): void {
  sub(activities, 'create <slug>', 'Create an activity; it is published at once and you become its manager')
    .requiredOption('--name <name>', 'its name')
    .addOption(new Option('--type <type>', 'contest or course').choices(['contest@1', 'course@1']).default('contest@1'))
    .addOption(new Option('--ranking <type>', 'how the standings count').choices(['icpc', 'points']).default('icpc'))
    .option('--time-zone <zone>', 'IANA time zone, e.g. Europe/Warsaw', 'UTC')
    .option('--start <instant>', "when it starts (RFC 3339; without an offset, in the activity's time zone)", zonedInstant)
    .option('--end <instant>', 'when it ends', zonedInstant)
    .addOption(new Option('--join <policy>', 'who may enrol themselves').choices(['open', 'password', 'closed']))
    .option('--join-password <password>', 'the password for --join password')
    .action(
      async (
        slug: string,
        o: JsonOption & { name: string; type: string; ranking: 'icpc' | 'points'; timeZone: string; start?: string; end?: string; join?: 'open' | 'password' | 'closed'; joinPassword?: string },
      ) => {
        const c = await api();
        const a = await c.call(ops.createActivity, {
          body: {
            slug,
            name: o.name,
            type: o.type,
            rankingType: o.ranking,
            timeZone: o.timeZone,
            ...(o.start ? { startDate: o.start } : {}),
            ...(o.end ? { endDate: o.end } : {}),
            ...(o.join ? { joinPolicy: o.join } : {}),
            ...(o.joinPassword ? { joinPassword: o.joinPassword } : {}),
          },
        });
        emit(o, a, () => `Created ${a.slug} (${a.id}).\n${activityFields(a)}`);
      },
    );
}

function readAndChangeCommands(activities: Command): void {
  sub(activities, 'list', 'List the activities you manage')
    .option('--search <text>', 'part of the slug or name')
    .option('--archived', 'include archived activities')
    .action(async (o: JsonOption & { search?: string; archived?: boolean }) => {
      const c = await api();
      const all = await allPages((page, pageSize) =>
        c.call(ops.listManagedActivities, { query: { page, pageSize, ...(o.search ? { search: o.search } : {}), ...(o.archived ? { includeArchived: 'true' as const } : {}) } }),
      );
      emit(o, all, () =>
        [
          table(
            ['slug', 'name', 'type', 'ranking', 'start', 'end', 'published', 'archived', 'series', 'problems', 'participants'],
            all.map((a) => [a.slug, a.name, a.type, a.rankingType, inZone(a.startDate, a.timeZone), inZone(a.endDate, a.timeZone), !!a.publishedAt, !!a.archivedAt, a.seriesCount, a.problemCount, a.participantCount]),
          ),
          plural(all.length, 'activity', 'activities'),
        ].join('\n'),
      );
    });

  sub(activities, 'show <activity>', 'Show an activity with its series and problems').action(async (idOrSlug: string, o: JsonOption) => {
    const c = await api();
    const a = await resolveActivity(c, idOrSlug);
    const series = await c.call(ops.listManagedSeries, { params: { idOrSlug: a.id } });
    const problems = series.flatMap((s) => s.problems.map((p) => ({ s, p })));
    emit(o, { ...a, series }, () =>
      [
        activityFields(a),
        series.length ? `Series:\n${seriesTable(series, a.timeZone)}` : 'No series yet: `judgectl series create`.',
        problems.length
          ? `Problems:\n${table(
              ['series', 'slug', 'name', 'problem', 'version', 'max points', 'submissions', 'assignment id'],
              problems.map(({ s, p }) => [s.slug, p.slug, p.name, p.problemSlug, p.pinnedVersion ? `${p.pinnedVersion} (pinned)` : p.currentVersion || 'none', p.maxPoints, p.submissionCount, p.id]),
            )}`
          : 'No problems yet: `judgectl assign`.',
      ].join('\n'),
    );
  });

  sub(activities, 'publish <activity>', 'Show the activity to participants (its series open on schedule), or withdraw it with --unpublish')
    .option('--unpublish', 'unpublish instead')
    .action(async (idOrSlug: string, o: JsonOption & { unpublish?: boolean }) => {
      const c = await api();
      const a = await resolveActivity(c, idOrSlug);
      const r = await c.call(ops.setActivityPublished, { params: { id: a.id }, body: { published: !o.unpublish } });
      emit(o, r, () => (r.publishedAt ? `${r.slug} is published.` : `${r.slug} is unpublished: participants do not see it and its series stay closed.`));
    });

  sub(
    activities,
    'duplicate <activity> <slug>',
    'Copy an activity with its series and problems as SLUG, unpublished, every date shifted so that its earliest series start lands on --start',
  )
    .requiredOption('--start <instant>', "when the copy's first series starts (RFC 3339; without an offset, in the activity's time zone)", zonedInstant)
    .action(async (idOrSlug: string, slug: string, o: JsonOption & { start: string }) => {
      const c = await api();
      const a = await resolveActivity(c, idOrSlug);
      const r = await c.call(ops.duplicateActivity, { params: { id: a.id }, body: { slug, startsAt: o.start } });
      const series = await c.call(ops.listManagedSeries, { params: { idOrSlug: r.id } });
      emit(o, { ...r, series }, () =>
        [
          `Copied ${a.slug} as ${r.slug} (unpublished: \`judgectl activities publish ${r.slug}\` when it is ready).`,
          series.length ? seriesTable(series, r.timeZone) : 'It has no series.',
        ].join('\n'),
      );
    });

  sub(activities, 'archive <activity>', 'Archive an activity (read-only, hidden from lists), or bring it back with --restore')
    .option('--restore', 'restore instead')
    .action(async (idOrSlug: string, o: JsonOption & { restore?: boolean }) => {
      const c = await api();
      const a = await resolveActivity(c, idOrSlug);
      const r = await c.call(ops.setActivityArchived, { params: { idOrSlug: a.id }, body: { archived: !o.restore } });
      emit(o, r, () => (r.archivedAt ? `${r.slug} is archived.` : `${r.slug} is restored.`));
    });
}
