import { ops, type Activity, type OperationInput } from '@judge/contract';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, type JsonOption } from '../output.js';
import { resolveActivity } from '../resolve.js';
import { NONE, noneToNull, zonedInstantOrNone, type OrNone } from '../zoned-time.js';
import { activityFields } from './activities.js';
import { positive, sub } from './common.js';

type Body = OperationInput<typeof ops.updateActivity>['body'];

/** The attachments of a judging that the show-... switches govern (decisions §8). */
const SWITCHED_ATTACHMENTS = { showCompileOutput: 'compile', showTestResults: 'details', showJudgeLog: 'log' } as const;

interface UpdateOptions extends JsonOption {
  name?: string;
  type?: string;
  ranking?: 'icpc' | 'points';
  timeZone?: string;
  start?: OrNone<string>;
  end?: OrNone<string>;
  join?: 'open' | 'password' | 'closed';
  joinPassword?: string | false;
  unlisted?: boolean;
  questions?: boolean;
  printouts?: boolean;
  sampleRuns?: boolean;
  scoreVisibility?: 'everyone' | 'participantOnly' | 'managersOnly';
  showCompileOutput?: boolean;
  showTestResults?: boolean;
  showJudgeLog?: boolean;
  hideEndedProblems?: boolean;
  showGroupMembers?: boolean;
  publicScoreboard?: boolean;
  maxSubmissions?: OrNone<number>;
  maxUploadBytes?: number;
  maxAttachments?: number;
  runnerTags?: string[];
  props?: OrNone<Record<string, unknown>>;
}

/** A byte count, with an optional K or M suffix (binary: 1K = 1024). */
function bytes(v: string): number {
  const m = /^(\d+)\s*(k|kib|m|mib)?$/i.exec(v.trim());
  if (!m) throw new InvalidArgumentError('not a size, e.g. 65536, 64K or 2M.');
  const unit = m[2]?.[0]?.toLowerCase();
  const n = Number(m[1]) * (unit === 'm' ? 1024 * 1024 : unit === 'k' ? 1024 : 1);
  if (n < 1) throw new InvalidArgumentError('must be at least 1 byte.');
  return n;
}

const positiveOrNone = (v: string): OrNone<number> => (v.trim().toLowerCase() === NONE ? NONE : positive(v));
const tags = (v: string) => (v.trim().toLowerCase() === 'none' ? [] : v.split(',').map((t) => t.trim()).filter(Boolean));

function json(v: string): OrNone<Record<string, unknown>> {
  if (v.trim().toLowerCase() === NONE) return NONE;
  try {
    const parsed: unknown = JSON.parse(v);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // refused below, with the same words as a non-object
  }
  throw new InvalidArgumentError('not a JSON object, e.g. {"color":"#336699"}, or none.');
}

/** A --x / --no-x pair: neither given leaves the setting as it is. */
function toggle(cmd: Command, flag: string, on: string, off: string): Command {
  return cmd.option(`--${flag}`, on).option(`--no-${flag}`, off);
}

function updateOptions(cmd: Command): Command {
  cmd
    .option('--name <name>', 'its name')
    .addOption(new Option('--type <type>', 'contest or course').choices(['contest@1', 'course@1']))
    .addOption(new Option('--ranking <type>', 'how the standings count').choices(['icpc', 'points']))
    .option('--time-zone <zone>', 'IANA time zone, e.g. Europe/Warsaw')
    .option('--start <instant>', 'when it starts (RFC 3339; without an offset, in the activity\'s time zone); none clears it', zonedInstantOrNone)
    .option('--end <instant>', 'when it ends; none clears it', zonedInstantOrNone)
    .addOption(new Option('--join <policy>', 'who may enrol themselves').choices(['open', 'password', 'closed']))
    .option('--join-password <password>', 'the password for --join password')
    .option('--no-join-password', 'clear the join password')
    .addOption(new Option('--score-visibility <who>', 'who sees the scores').choices(['everyone', 'participantOnly', 'managersOnly']));
  toggle(cmd, 'unlisted', 'hide it from the list of activities (a closed one always is)', 'list it');
  toggle(cmd, 'questions', 'participants may ask questions', 'turn questions off');
  toggle(cmd, 'printouts', 'participants may request printouts', 'turn printouts off');
  toggle(cmd, 'sample-runs', 'participants may run their code on the samples, never counted (the default)', 'turn sample runs off');
  toggle(cmd, 'show-compile-output', "show participants the compiler's output of their submissions (the default)", 'keep it for managers');
  toggle(cmd, 'show-test-results', 'show participants the per-test results of their submissions', 'keep them for managers (the default)');
  toggle(cmd, 'show-judge-log', "show participants the judge's log of their submissions", 'keep it for managers (the default)');
  toggle(cmd, 'hide-ended-problems', 'hide the problems of series that have ended', 'keep showing them');
  toggle(cmd, 'show-group-members', 'show participants the members of their group', 'do not');
  toggle(cmd, 'public-scoreboard', 'show the public scoreboard (frozen as the public sees it) to anybody, signed in or not, at /a/SLUG/scoreboard', 'only to who may see the activity (the default)');
  return cmd
    .option('--max-submissions <n>', 'submissions a participant may make per problem; none: no cap', positiveOrNone)
    .option('--max-upload-bytes <size>', 'largest submission, e.g. 65536, 64K or 2M', bytes)
    .option('--max-attachments <n>', 'files per submission', positive)
    .option('--runner-tags <tags>', 'comma-separated tags a runner needs to judge it; none clears them', tags)
    .option('--props <json>', 'free-form properties (a JSON object) replacing the stored ones; none clears them', json);
}

/** The visibility list with the switched names set as asked, the others kept. */
function attachmentsAfter(a: Activity, o: UpdateOptions): Body['attachmentVisibility'] {
  const asked = Object.entries(SWITCHED_ATTACHMENTS).filter(([k]) => o[k as keyof typeof SWITCHED_ATTACHMENTS] !== undefined);
  if (!asked.length) return undefined;
  const list = a.attachmentVisibility.filter((v) => !asked.some(([, name]) => name === v.name));
  for (const [k, name] of asked) list.push({ name, visibility: o[k as keyof typeof SWITCHED_ATTACHMENTS] ? 'participant' : 'managersOnly' });
  return list;
}

/** The update body: only what was given, so everything else keeps its stored value. */
function bodyOf(a: Activity, o: UpdateOptions): Body {
  const modules = {
    ...(o.questions !== undefined ? { questions: o.questions } : {}),
    ...(o.printouts !== undefined ? { printouts: o.printouts } : {}),
    ...(o.sampleRuns !== undefined ? { sampleRuns: o.sampleRuns } : {}),
  };
  const given: Partial<Body> = {
    name: o.name,
    type: o.type,
    rankingType: o.ranking,
    timeZone: o.timeZone,
    startDate: noneToNull(o.start),
    endDate: noneToNull(o.end),
    joinPolicy: o.join,
    joinPassword: o.joinPassword === false ? null : o.joinPassword,
    unlisted: o.unlisted,
    modules: Object.keys(modules).length ? modules : undefined,
    scoreVisibility: o.scoreVisibility,
    attachmentVisibility: attachmentsAfter(a, o),
    hideEndedSeriesProblems: o.hideEndedProblems,
    showGroupMembers: o.showGroupMembers,
    publicScoreboard: o.publicScoreboard,
    maxSubmissionsPerProblem: noneToNull(o.maxSubmissions),
    maxUploadBytes: o.maxUploadBytes,
    maxAttachments: o.maxAttachments,
    runnerTags: o.runnerTags,
    props: noneToNull(o.props),
  };
  return { slug: a.slug, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
}

export function activitySettingsCommands(activities: Command): void {
  updateOptions(sub(activities, 'update <activity>', 'Change the settings given (every other stays as it is), then show the activity')).action(
    async (activity: string, o: UpdateOptions) => {
      const c = await api();
      const a = await resolveActivity(c, activity);
      const body = bodyOf(a, o);
      if (Object.keys(body).length === 1) throw new CliError('nothing to change: give at least one setting (see `judgectl activities update --help`)');
      const r = await c.call(ops.updateActivity, { params: { idOrSlug: a.id }, body });
      emit(o, r, () => `Updated ${r.slug}.\n${activityFields(r)}`);
    },
  );

  sub(
    activities,
    'delete <activity>',
    'Delete an activity with its series and memberships. The server refuses once it holds submissions (archive it instead). ' +
      'On a terminal it asks first; elsewhere it needs --yes.',
  )
    .option('--yes', 'delete without asking')
    .action(async (activity: string, o: JsonOption & { yes?: boolean }) => {
      const c = await api();
      const a = await resolveActivity(c, activity);
      if (!o.yes) {
        if (!process.stdin.isTTY) throw new CliError(`not deleting ${a.slug} without --yes (there is no terminal to ask on)`);
        const { confirm } = await import('@inquirer/prompts');
        const what = `${a.slug} (${a.name}) with its ${a.seriesCount} series and ${a.participantCount} participants`;
        if (!(await confirm({ message: `Delete ${what}? This cannot be undone.`, default: false }))) throw new CliError(`${a.slug} was not deleted`);
      }
      await c.call(ops.deleteActivity, { params: { idOrSlug: a.id } });
      emit(o, { deleted: { id: a.id, slug: a.slug } }, () => `Deleted ${a.slug}.`);
    });
}
