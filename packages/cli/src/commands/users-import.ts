import { ops, type Activity, type IssuedCredentials, type Role } from '@judge/contract';
import { CSV_BOM, csvLine, fullName, sortAgainst, spelled, type Existing, type JudgeClient } from '@judge/sdk';
import { Option, type Command } from 'commander';
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { activityRoles, builtInRole, memberships } from '../accounts.js';
import { api } from '../client.js';
import { readClassList, refuseList, requestOf, type ClassList, type ImportRow } from '../class-list.js';
import { CliError } from '../errors.js';
import { emit, note, plural, table, type JsonOption } from '../output.js';
import { allPages, resolveActivity } from '../resolve.js';
import { sub } from './common.js';

type ImportOptions = JsonOption & { activity: string; out?: string; enrolExisting?: boolean; skipExisting?: boolean };

/** What the import does with the accounts that exist already: enrol them, or leave them as they are. */
async function enrolExisting(o: ImportOptions, a: Activity, file: string, outside: Existing[]): Promise<boolean> {
  if (!outside.length || o.enrolExisting) return true;
  if (o.skipExisting) return false;
  const names = outside.map((e) => spelled(e.row)).join(', ');
  if (o.json || !process.stdin.isTTY) {
    throw new CliError(
      `${plural(outside.length, 'account')} of ${file} exist but are not in ${a.slug} (${names}): give --enrol-existing to enrol them as participants, ` +
        'or --skip-existing to leave them out; nothing was created',
    );
  }
  const { confirm } = await import('@inquirer/prompts');
  return confirm({ message: `Enrol the ${plural(outside.length, 'existing account')} in ${a.slug} as participants too? (No leaves them out.)`, default: true });
}

/** Tells, before anything else, which accounts of the list exist already (on standard error: never mixed into --json). */
function reportExisting(file: string, a: Activity, existing: Existing[]): void {
  if (!existing.length) return;
  const members = existing.filter((e) => e.member).length;
  note(
    `${plural(existing.length, 'account')} of ${file} ${existing.length === 1 ? 'exists' : 'exist'} already` +
      `${members ? `, ${members} of them in ${a.slug}` : ''}:\n` +
      table(
        ['line', 'username', 'name', `in ${a.slug}`],
        existing.map((e) => [e.row.line, spelled(e.row), fullName(e.account), e.member ? 'yes' : 'no']),
      ),
  );
}

type Made = IssuedCredentials & { row: ImportRow; enrolled: boolean };

/**
 * Creates and enrols the new accounts, writing their credentials as it goes: the file is made
 * before the first account, so no issued password can be lost. It is written as the class list
 * was (its separator), with a byte-order mark so that a spreadsheet reads its umlauts.
 */
async function createAll(c: JudgeClient, list: ClassList, fresh: ImportRow[], out: string, activity: Activity, participant: Role): Promise<Made[]> {
  let fd: number;
  try {
    fd = openSync(out, 'wx', 0o600);
  } catch (e) {
    throw new CliError(`cannot create ${out}: ${(e as Error).message}; nothing was created`);
  }
  const made: Made[] = [];
  const line = (values: (string | undefined)[]) => csvLine(values, list.separator);
  try {
    writeSync(fd, CSV_BOM + line(['username', 'password', 'firstName', 'lastName', 'email', 'userId', 'usernameInFile']));
    for (const r of fresh) {
      const issued = await c.call(ops.createUser, { body: requestOf(r) });
      writeSync(fd, line([issued.username, issued.password, r.firstName, r.lastName, r.email, issued.userId, r.usernameInFile]));
      made.push({ ...issued, row: r, enrolled: false });
      await c.call(ops.createGrant, { body: { userId: issued.userId, roleId: participant.id, activityId: activity.id } });
      made[made.length - 1]!.enrolled = true;
    }
  } catch (e) {
    closeSync(fd);
    if (made.length) {
      const pending = made.filter((m) => !m.enrolled).map((m) => m.username);
      note(
        `judgectl: stopped after creating ${plural(made.length, 'account')} (${made.map((m) => m.username).join(', ')}); their credentials are in ${out}` +
          (pending.length ? `; not enrolled: ${pending.join(', ')}` : ''),
      );
    }
    throw e;
  }
  closeSync(fd);
  return made;
}

/** Creates the new accounts of a checked list and enrols them; the existing ones as asked. */
async function importUsers(file: string, o: ImportOptions): Promise<void> {
  const list = readClassList(file);
  if (list.encoding !== 'utf-8') note(`judgectl: ${file} is not UTF-8; read it as Windows-1252 (Excel's plain CSV)`);
  const out = o.out ?? `${file.replace(/\.csv$/i, '')}-credentials.csv`;
  const c = await api();
  const activity = await resolveActivity(c, o.activity);
  const roles = await activityRoles(c, activity);
  const participant = builtInRole(roles, 'participant');
  const accounts = await allPages((page, pageSize) => c.call(ops.listManagedUsers, { query: { includeBlocked: 'true', page, pageSize } }));
  const members = new Set((await memberships(c, activity, roles, null)).map((m) => m.grant.userId));
  const sorted = sortAgainst(list.rows, accounts, members);
  reportExisting(file, activity, sorted.existing);
  refuseList(file, sorted.faults);
  if (sorted.fresh.length && existsSync(out)) throw new CliError(`${out} exists: move it away or give --out (credentials files are never overwritten); nothing was created`);
  const outside = sorted.existing.filter((e) => !e.member);
  const enrolThem = await enrolExisting(o, activity, file, outside);

  const made = sorted.fresh.length ? await createAll(c, list, sorted.fresh, out, activity, participant) : [];
  const enrolled: Existing[] = [];
  for (const e of enrolThem ? outside : []) {
    await c.call(ops.createGrant, { body: { userId: e.account.id, roleId: participant.id, activityId: activity.id } });
    enrolled.push(e);
  }
  const brief = (e: Existing) => ({ userId: e.account.id, username: e.account.username });
  const result = {
    activity: activity.slug,
    credentialsFile: made.length ? out : null,
    created: made.map((m) => ({ userId: m.userId, username: m.username, ...(m.row.usernameInFile ? { usernameInFile: m.row.usernameInFile } : {}) })),
    enrolledExisting: enrolled.map(brief),
    alreadyMembers: sorted.existing.filter((e) => e.member).map(brief),
    leftOut: enrolThem ? [] : outside.map(brief),
  };
  emit(o, result, () => importSummary(activity, made, result, out));
}

function importSummary(a: Activity, made: Made[], r: { enrolledExisting: unknown[]; alreadyMembers: unknown[]; leftOut: { username: string }[] }, out: string): string {
  const renamed = made.some((m) => m.row.usernameInFile);
  const lines = [];
  if (made.length) {
    lines.push(
      table(renamed ? ['username', 'in the file', 'id'] : ['username', 'id'], made.map((m) => (renamed ? [m.username, m.row.usernameInFile, m.userId] : [m.username, m.userId]))),
      `Created ${plural(made.length, 'account')} and enrolled them in ${a.slug} as participants.`,
    );
    if (renamed) lines.push('Names outside the username alphabet were made into usernames (umlauts spelled out, accents dropped); the credentials file has both.');
  }
  if (r.enrolledExisting.length) lines.push(`Enrolled ${plural(r.enrolledExisting.length, 'existing account')} in ${a.slug}; they keep their passwords.`);
  if (r.alreadyMembers.length) lines.push(`${plural(r.alreadyMembers.length, 'account')} ${r.alreadyMembers.length === 1 ? 'was' : 'were'} in ${a.slug} already.`);
  if (r.leftOut.length) lines.push(`Left out ${plural(r.leftOut.length, 'existing account')}: ${r.leftOut.map((x) => x.username).join(', ')}.`);
  if (made.length) lines.push(`Their passwords are in ${out} (readable by you only): hand them over, then delete the file.`);
  else lines.push('No new accounts: no credentials file was written.');
  return lines.join('\n');
}

export function importCommand(users: Command): void {
  sub(
    users,
    'import <file>',
    'Create participants from a class list (header: username,firstName,lastName,email; username required; comma, semicolon or tab separated, as spreadsheets save it) ' +
      'and enrol them in an activity. The whole file is checked first: a faulty line creates nothing. Usernames outside the username alphabet are made into it ' +
      '(lmüller becomes lmueller, sgroß sgross, accents dropped), shown and written to the credentials file. Accounts that exist already are reported first; ' +
      'on a terminal you are asked whether to enrol them, elsewhere give --enrol-existing or --skip-existing. The issued passwords go to a CSV readable by you only.',
  )
    .requiredOption('--activity <slug>', 'the activity to enrol them in (as participants)')
    .option('--out <file>', 'where the credentials go (default: <file>-credentials.csv; never overwritten)')
    .addOption(new Option('--enrol-existing', 'enrol the accounts of the list that exist already, without asking').conflicts('skipExisting'))
    .option('--skip-existing', 'leave the accounts of the list that exist already out, without asking')
    .action(importUsers);
}
