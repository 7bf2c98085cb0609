import { ENROLMENT_CODE_MAX_SECONDS, ops, type EnrolmentCode } from '@judge/contract';
import { InvalidArgumentError, type Command } from 'commander';
import { api, signedIn } from '../client.js';
import { CliError } from '../errors.js';
import { emit, plural, table, when, type JsonOption } from '../output.js';
import { positive, sub } from './common.js';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `90m`, `1h`, `2d`: how long a code stays valid, within what the server allows. */
function duration(v: string): number {
  const m = /^(\d+)\s*([smhd])$/.exec(v.trim());
  const seconds = m ? Number(m[1]) * UNIT_SECONDS[m[2]!]! : NaN;
  if (!(seconds >= 60 && seconds <= ENROLMENT_CODE_MAX_SECONDS)) throw new InvalidArgumentError('a duration from 1m to 7d, e.g. 30m, 1h or 2d.');
  return seconds;
}

function tagList(v: string): string[] {
  return v
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

function codesTable(list: EnrolmentCode[]): string {
  return table(
    ['id', 'name', 'tags', 'used', 'expires', 'created by', 'last used'],
    list.map((c) => [c.id, c.name, c.tags.join(', '), `${c.used}/${c.uses}`, when(c.expiresAt), c.createdByName, when(c.lastUsedAt)]),
  );
}

/** An id as listed, or a prefix of one (4 characters or more) that names one code. */
async function resolveCode(which: string): Promise<EnrolmentCode> {
  const { items } = await (await api()).call(ops.listRunnerEnrolmentCodes, {});
  const matches = items.filter((c) => c.id === which || (which.length >= 4 && c.id.startsWith(which)));
  if (matches.length === 1) return matches[0]!;
  if (!matches.length) throw new CliError(`no unexpired enrolment code ${which} (see judgectl runners codes)`);
  throw new CliError(`${which} names ${matches.length} codes: give more of the id`);
}

/** `judgectl runners add` and `judgectl runners codes`: enrolment codes that approve a new runner at once. */
export function enrolmentCodeCommands(runners: Command): void {
  sub(runners, 'add', 'Make a one-time enrolment code and print the commands that make a lab machine a runner with it, approved at once')
    .option('--name <name>', 'the name the runner gets (default: its own, the host name)')
    .option('--tags <a,b>', 'the tags the runner gets (default: those it registers with)', tagList)
    .option('--expires <duration>', 'how long the code may be used: 30m, 1h, 2d ... up to 7d', duration, 3600)
    .option('--uses <n>', 'how many runners may enrol with it', positive, 1)
    .action(async (o: JsonOption & { name?: string; tags?: string[]; expires: number; uses: number }) => {
      const { client, creds } = await signedIn();
      const made = await client.call(ops.createRunnerEnrolmentCode, {
        body: { expiresInSeconds: o.expires, uses: o.uses, ...(o.name ? { name: o.name } : {}), ...(o.tags ? { tags: o.tags } : {}) },
      });
      const commands = [`judge-runner register --server ${creds.server} --code ${made.code}`, 'judge-runner start'];
      emit(o, { ...made, server: creds.server, commands }, () =>
        [
          `Enrolment code ${made.code}: ${plural(made.uses, 'use')}, until ${when(made.expiresAt)}${made.name ? `, names the runner ${made.name}` : ''}${made.tags.length ? `, tags ${made.tags.join(', ')}` : ''}.`,
          'On the lab machine, run:',
          ...commands.map((c) => `  ${c}`),
          'It is approved at once, without `judgectl runners approve`. The code is shown only now; the server keeps only its hash.',
        ].join('\n'),
      );
    });

  const codes = sub(runners, 'codes', 'List the enrolment codes that have not expired (never the codes themselves)').action(async (o: JsonOption) => {
    const { items } = await (await api()).call(ops.listRunnerEnrolmentCodes, {});
    emit(o, items, () => `${codesTable(items)}\n${plural(items.length, 'enrolment code')}`);
  });

  sub(codes, 'revoke <id>', 'Withdraw an enrolment code, so that no runner can enrol with it any more; ID is its id or a prefix of it (runners it enrolled stay)').action(
    async (which: string, _o: JsonOption, cmd: Command) => {
      // `codes` takes --json too, and commander gives it to the parent wherever it is typed
      const o = cmd.optsWithGlobals<JsonOption>();
      const code = await resolveCode(which);
      await (await api()).call(ops.revokeRunnerEnrolmentCode, { params: { id: code.id } });
      emit(o, { revoked: code.id }, () => `Withdrew the enrolment code ${code.id}${code.name ? ` (${code.name})` : ''}.`);
    },
  );
}
