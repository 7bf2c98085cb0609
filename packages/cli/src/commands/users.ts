import { CreateUserRequest, ops, type IssuedCredentials, type ManagedUser } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Command } from 'commander';
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { api } from '../client.js';
import { csvLine, CsvSyntaxError, parseCsv } from '../csv.js';
import { CliError } from '../errors.js';
import { emit, fields, note, plural, table, when, type JsonOption } from '../output.js';
import { allPages, resolveActivity, resolveUser } from '../resolve.js';
import { positive, sub } from './common.js';

const name = (u: { firstName?: string | undefined; lastName?: string | undefined }) => [u.firstName, u.lastName].filter(Boolean).join(' ');

function usersTable(list: ManagedUser[]): string {
  return table(
    ['id', 'username', 'name', 'email', 'created', 'last seen', 'blocked'],
    list.map((u) => [u.id, u.username, name(u), u.email, when(u.createdAt), when(u.lastSeenAt), u.blockedAt ? `since ${when(u.blockedAt)}${u.blockedReason ? `: ${u.blockedReason}` : ''}` : '']),
  );
}

// ---------------------------------------------------------------- import

const requestOf = (r: { username: string; firstName?: string | undefined; lastName?: string | undefined; email?: string | undefined }) => ({
  username: r.username,
  ...(r.firstName ? { firstName: r.firstName } : {}),
  ...(r.lastName ? { lastName: r.lastName } : {}),
  ...(r.email ? { email: r.email } : {}),
});

/** The columns a users CSV may have, by their normalised header. */
const COLUMNS = { username: 'username', firstname: 'firstName', lastname: 'lastName', email: 'email' } as const;
type Column = (typeof COLUMNS)[keyof typeof COLUMNS];

export interface ImportRow {
  line: number;
  username: string;
  firstName?: string;
  lastName?: string;
  email?: string;
}

/**
 * Checks the whole file before anything is created: the header, every line's shape and values (as
 * the server would check them), and repeated usernames or addresses. Answers the rows, or throws
 * one message naming every faulty line.
 */
export function readUsersCsv(file: string): ImportRow[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${file}: ${(e as Error).message}`);
  }
  let records;
  try {
    records = parseCsv(text);
  } catch (e) {
    if (e instanceof CsvSyntaxError) throw new CliError(`${file}: ${e.message}; nothing was created`);
    throw e;
  }
  const [header, ...body] = records;
  if (!header) throw new CliError(`${file} is empty: it needs a header line (username,firstName,lastName,email) and one line per account`);
  const columns: Column[] = [];
  for (const h of header.fields) {
    const key = h.trim().toLowerCase().replace(/[^a-z]/g, '') as keyof typeof COLUMNS;
    const col = COLUMNS[key];
    if (!col) throw new CliError(`${file}: line 1: unknown column "${h}" (the columns are username, firstName, lastName, email); nothing was created`);
    if (columns.includes(col)) throw new CliError(`${file}: line 1: the column ${col} appears twice; nothing was created`);
    columns.push(col);
  }
  if (!columns.includes('username')) throw new CliError(`${file}: line 1: the header has no username column; nothing was created`);
  if (body.length === 0) throw new CliError(`${file} holds no accounts, only the header`);

  const faults: string[] = [];
  const rows: ImportRow[] = [];
  const seen = new Map<string, number>();
  for (const r of body) {
    if (r.fields.length !== columns.length) {
      faults.push(`line ${r.line}: ${plural(r.fields.length, 'field')}, the header has ${columns.length}`);
      continue;
    }
    const row: ImportRow = { line: r.line, username: '' };
    columns.forEach((c, i) => {
      const v = r.fields[i]!.trim();
      if (v) row[c] = v;
    });
    const checked = CreateUserRequest.safeParse(requestOf(row));
    if (!checked.success) {
      const what = checked.error.issues.map((i) => {
        const col = String(i.path[0] ?? 'line');
        const value = row[col as Column];
        return value ? `${col} "${value}": ${i.message}` : `${col} is missing`;
      });
      faults.push(`line ${r.line}: ${what.join('; ')}`);
      continue;
    }
    for (const key of [`u:${row.username.toLowerCase()}`, ...(row.email ? [`e:${row.email.toLowerCase()}`] : [])]) {
      const before = seen.get(key);
      if (before !== undefined) faults.push(`line ${r.line}: ${key.startsWith('u:') ? 'username' : 'email'} ${key.slice(2)} already appears on line ${before}`);
      else seen.set(key, r.line);
    }
    rows.push(row);
  }
  if (faults.length) throw new CliError(`${file}: ${faults.slice(0, 20).join('\n  ')}${faults.length > 20 ? `\n  ... and ${faults.length - 20} more` : ''}\nnothing was created`);
  return rows;
}

/** Runs `f` over the items, a few at a time, in order of the answers' places. */
async function mapLimited<T, R>(items: T[], limit: number, f: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await f(items[i]!);
      }
    }),
  );
  return out;
}

/** Usernames and addresses of the file that accounts on the server already have. */
async function taken(c: JudgeClient, file: string, rows: ImportRow[]): Promise<void> {
  const faults = (
    await mapLimited(rows, 8, async (r) => {
      const out: string[] = [];
      const byName = await c.call(ops.lookupUsers, { query: { q: r.username } });
      if (byName.some((u) => u.username.toLowerCase() === r.username.toLowerCase())) out.push(`line ${r.line}: the username ${r.username} is taken`);
      if (r.email) {
        const byMail = await c.call(ops.lookupUsers, { query: { q: r.email } });
        if (byMail.some((u) => u.email?.toLowerCase() === r.email!.toLowerCase())) out.push(`line ${r.line}: the email ${r.email} belongs to another account`);
      }
      return out;
    })
  ).flat();
  if (faults.length) throw new CliError(`${file}: ${faults.slice(0, 20).join('\n  ')}${faults.length > 20 ? `\n  ... and ${faults.length - 20} more` : ''}\nnothing was created`);
}

// ---------------------------------------------------------------- commands

type ImportOptions = JsonOption & { activity: string; out?: string };

export function usersCommands(program: Command): void {
  const users = program.command('users').description('Accounts: create, list, block, reset passwords, import participants from CSV');
  createAndList(users);
  blockResetAndShow(users);
  importCommand(users);
}

function createAndList(users: Command): void {
  sub(users, 'create <username>', 'Create an account; its generated password is printed this once')
    .option('--first-name <name>', 'first name')
    .option('--last-name <name>', 'last name')
    .option('--email <address>', 'email address')
    .action(async (username: string, o: JsonOption & { firstName?: string; lastName?: string; email?: string }) => {
      const c = await api();
      const issued = await c.call(ops.createUser, { body: requestOf({ username, ...o }) });
      emit(o, issued, () => `Created ${issued.username} (${issued.userId}).\npassword: ${issued.password}\nIt is shown this once: hand it over now.`);
    });

  sub(users, 'list', 'List accounts (20 a page unless --all-pages)')
    .option('--search <text>', 'part of the login, name or email')
    .option('--page <n>', 'which page', positive, 1)
    .option('--all-pages', 'every account, not just one page (--json then prints an array, not a page)')
    .action(async (o: JsonOption & { search?: string; page: number; allPages?: boolean }) => {
      const c = await api();
      const query = { includeBlocked: 'true' as const, ...(o.search ? { search: o.search } : {}) };
      if (o.allPages) {
        const all = await allPages((page, pageSize) => c.call(ops.listManagedUsers, { query: { ...query, page, pageSize } }));
        return emit(o, all, () => `${usersTable(all)}\n${plural(all.length, 'account')}`);
      }
      const p = await c.call(ops.listManagedUsers, { query: { ...query, page: o.page } });
      const pages = Math.max(1, Math.ceil(p.total / p.pageSize));
      emit(o, p, () => `${usersTable(p.items)}\npage ${p.page} of ${pages}, ${plural(p.total, 'account')}${pages > 1 ? ' (--page N or --all-pages for more)' : ''}`);
    });
}

function blockResetAndShow(users: Command): void {
  sub(users, 'block <user>', 'Block an account (its sessions end at once), or unblock it with --unblock')
    .option('--unblock', 'unblock instead')
    .option('--reason <text>', 'why (kept with the account)')
    .action(async (user: string, o: JsonOption & { unblock?: boolean; reason?: string }) => {
      const c = await api();
      const u = await resolveUser(c, user);
      const r = await c.call(ops.setUserBlocked, { params: { id: u.id }, body: { blocked: !o.unblock, ...(o.reason ? { reason: o.reason } : {}) } });
      emit(o, r, () => (r.blockedAt ? `Blocked ${r.username}${r.blockedReason ? ` (${r.blockedReason})` : ''}.` : `Unblocked ${r.username}.`));
    });

  sub(users, 'reset-password <user>', 'Issue a new generated password (printed this once); the account is signed out everywhere').action(
    async (user: string, o: JsonOption) => {
      const c = await api();
      const u = await resolveUser(c, user);
      const issued = await c.call(ops.resetUserPassword, { params: { id: u.id } });
      emit(o, issued, () => `New password for ${issued.username}: ${issued.password}\nIt is shown this once: hand it over now.`);
    },
  );

  sub(users, 'show <user>', 'Show one account').action(async (user: string, o: JsonOption) => {
    const c = await api();
    const u = await resolveUser(c, user);
    const all = await allPages((page, pageSize) => c.call(ops.listManagedUsers, { query: { search: u.username, includeBlocked: 'true', page, pageSize } }));
    const m = all.find((x) => x.id === u.id);
    if (!m) throw new CliError(`no user ${user}`);
    emit(o, m, () =>
      fields([
        ['id', m.id],
        ['username', m.username],
        ['name', name(m)],
        ['email', m.email ? `${m.email}${m.emailConfirmed ? '' : ' (not confirmed)'}` : ''],
        ['tags', m.tags.join(', ')],
        ['created', when(m.createdAt)],
        ['last seen', when(m.lastSeenAt)],
        ['blocked', m.blockedAt ? `since ${when(m.blockedAt)}${m.blockedReason ? `: ${m.blockedReason}` : ''}` : 'no'],
        ['grants', m.grantCount],
      ]),
    );
  });
}

function importCommand(users: Command): void {
  sub(
    users,
    'import <file>',
    'Create participants from a CSV (header: username,firstName,lastName,email; username required) and enrol them in an activity. ' +
      'The whole file is checked first: a faulty line creates nothing. The issued passwords go to a CSV readable by you only.',
  )
    .requiredOption('--activity <slug>', 'the activity to enrol them in (as participants)')
    .option('--out <file>', 'where the credentials go (default: <file>-credentials.csv; never overwritten)')
    .action(importUsers);
}

/** Creates and enrols the accounts of a checked CSV, writing their credentials as it goes. */
async function importUsers(file: string, o: ImportOptions): Promise<void> {
  const rows = readUsersCsv(file);
  const out = o.out ?? `${file.replace(/\.csv$/i, '')}-credentials.csv`;
  if (existsSync(out)) throw new CliError(`${out} exists: move it away or give --out (credentials files are never overwritten); nothing was created`);
  const c = await api();
  const activity = await resolveActivity(c, o.activity);
  const roles = await c.call(ops.listRoles, { query: { activityId: activity.id } });
  const participant = roles.find((r) => r.builtInKey === 'participant');
  if (!participant) throw new CliError('the server has no built-in participant role; nothing was created');
  await taken(c, file, rows);

  // the file is made before the first account, so no issued password can be lost
  let fd: number;
  try {
    fd = openSync(out, 'wx', 0o600);
  } catch (e) {
    throw new CliError(`cannot create ${out}: ${(e as Error).message}; nothing was created`);
  }
  const made: (IssuedCredentials & { enrolled: boolean })[] = [];
  try {
    writeSync(fd, csvLine(['username', 'password', 'firstName', 'lastName', 'email', 'userId']));
    for (const r of rows) {
      const issued = await c.call(ops.createUser, { body: requestOf(r) });
      writeSync(fd, csvLine([issued.username, issued.password, r.firstName, r.lastName, r.email, issued.userId]));
      made.push({ ...issued, enrolled: false });
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
  const result = { activity: activity.slug, credentialsFile: out, created: made.map(({ userId, username }) => ({ userId, username })) };
  emit(o, result, () =>
    [
      table(['username', 'id'], made.map((m) => [m.username, m.userId])),
      `Created ${plural(made.length, 'account')} and enrolled them in ${activity.slug} as participants.`,
      `Their passwords are in ${out} (readable by you only): hand them over, then delete the file.`,
    ].join('\n'),
  );
}
