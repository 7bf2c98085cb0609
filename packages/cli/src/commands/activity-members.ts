import { ops, type Activity, type Role } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import type { Command } from 'commander';
import { activityRoles, builtInRole, memberships, resolveAccounts, roleLabel, type Account, type Membership } from '../accounts.js';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, plural, table, type JsonOption } from '../output.js';
import { readClassList } from '../class-list.js';
import { resolveActivity } from '../resolve.js';
import { inZone } from '../zoned-time.js';
import { sub } from './common.js';

/** A membership that a command changed: the role before and after (null: none). */
interface Changed {
  userId: string;
  username: string;
  was: string | null;
  now: string | null;
}

/** A user a command left as they were, and why. */
interface Kept {
  userId: string;
  username: string;
  role: string | null;
  reason: string;
}

interface Context {
  c: JudgeClient;
  a: Activity;
  roles: Role[];
}

/** What to do for one user, given their membership now: a change to make, or why there is none. */
type Step = { now: string | null; run: () => Promise<unknown> } | { keep: string };

type Decide = (ctx: Context, account: Account, m: Membership | undefined) => Step;

/**
 * Resolves every user first (one unknown refuses them all, before anything changes), then goes
 * through them in order: users already in the wanted state are reported, not refused, so a list can
 * be given again after a partial run.
 */
async function changeMembers(activity: string, names: string[], decide: Decide): Promise<{ a: Activity; changed: Changed[]; kept: Kept[] }> {
  const c = await api();
  const a = await resolveActivity(c, activity);
  const roles = await activityRoles(c, a);
  const accounts = await resolveAccounts(c, names);
  const current = await memberships(c, a, roles, null);
  const changed: Changed[] = [];
  const kept: Kept[] = [];
  for (const account of accounts) {
    const m = current.find((x) => x.grant.userId === account.id);
    const was = m ? roleLabel(m) : null;
    const step = decide({ c, a, roles }, account, m);
    if ('keep' in step) {
      kept.push({ userId: account.id, username: account.username, role: was, reason: step.keep });
      continue;
    }
    await step.run();
    changed.push({ userId: account.id, username: account.username, was, now: step.now });
  }
  return { a, changed, kept };
}

function report(o: JsonOption, r: { a: Activity; changed: Changed[]; kept: Kept[] }, done: string): void {
  emit(o, { activity: r.a.slug, changed: r.changed, unchanged: r.kept }, () =>
    [
      r.changed.length ? `${done} in ${r.a.slug}: ${r.changed.map((x) => x.username).join(', ')}.` : `Nothing changed in ${r.a.slug}.`,
      ...r.kept.map((k) => `${k.username}: ${k.reason}, left as it was.`),
    ].join('\n'),
  );
}

const grantOf = (ctx: Context, account: Account, key: 'participant' | 'manager') => () =>
  ctx.c.call(ops.createGrant, { body: { userId: account.id, roleId: builtInRole(ctx.roles, key).id, activityId: ctx.a.id } });
const ungrant = (ctx: Context, m: Membership) => () => ctx.c.call(ops.deleteGrant, { params: { id: m.grant.id } });

export function activityMembersCommands(activities: Command): void {
  listCommands(activities);
  participantCommands(activities);
  managerCommands(activities);
}

function membersTable(a: Activity, list: Membership[]): string {
  return table(
    ['username', 'name', 'role', 'user id', 'since'],
    list.map((m) => [m.username ?? '', m.grant.userName, roleLabel(m), m.grant.userId, inZone(m.grant.createdAt, a.timeZone)]),
  );
}

const memberJson = (m: Membership) => ({ userId: m.grant.userId, username: m.username ?? null, name: m.grant.userName, role: roleLabel(m), grantId: m.grant.id, since: m.grant.createdAt });

function listCommands(activities: Command): void {
  sub(activities, 'members <activity>', "List an activity's members (participants, managers and any other role) with their roles").action(async (activity: string, o: JsonOption) => {
    const c = await api();
    const a = await resolveActivity(c, activity);
    const list = await memberships(c, a, await activityRoles(c, a));
    emit(o, list.map(memberJson), () => `${membersTable(a, list)}\n${plural(list.length, 'member')} of ${a.slug}`);
  });

  sub(activities, 'managers <activity>', "List an activity's managers").action(async (activity: string, o: JsonOption) => {
    const c = await api();
    const a = await resolveActivity(c, activity);
    const list = (await memberships(c, a, await activityRoles(c, a))).filter((m) => m.role?.builtInKey === 'manager');
    emit(o, list.map(memberJson), () => `${membersTable(a, list)}\n${plural(list.length, 'manager')} of ${a.slug}`);
  });
}

/** The usernames of a users CSV (the file `users import` takes), checked as that command checks it. */
function csvUsernames(file: string | undefined): string[] {
  return file ? readClassList(file).rows.map((r) => r.username) : [];
}

function participantCommands(activities: Command): void {
  sub(
    activities,
    'enrol <activity> [users...]',
    'Enrol existing accounts (usernames or ids) as participants. Every name is checked first: an unknown one changes nothing. ' +
      'A user who is already a member (in any role) is reported and left as they are; the rest are enrolled.',
  )
    .option('--from-csv <file>', 'also enrol the usernames of a CSV as `users import` takes it (header username,firstName,lastName,email)')
    .action(async (activity: string, users: string[], o: JsonOption & { fromCsv?: string }) => {
      const names = [...users, ...csvUsernames(o.fromCsv)];
      if (!names.length) throw new CliError('name at least one user, or give --from-csv FILE');
      const r = await changeMembers(activity, names, (ctx, account, m) =>
        m ? { keep: `already a member (${roleLabel(m)})` } : { now: 'participant', run: grantOf(ctx, account, 'participant') },
      );
      report(o, r, 'Enrolled as participants');
    });

  sub(
    activities,
    'remove <activity> <users...>',
    'Take users (usernames or ids) out of an activity. Managers are left for `activities revoke-manager`; a user who is not a member is reported.',
  ).action(async (activity: string, users: string[], o: JsonOption) => {
    const r = await changeMembers(activity, users, (ctx, _account, m) => {
      if (!m) return { keep: 'not a member' };
      if (m.role?.builtInKey === 'manager') return { keep: 'a manager (`judgectl activities revoke-manager` takes that away)' };
      return { now: null, run: ungrant(ctx, m) };
    });
    report(o, r, 'Removed');
  });
}

function managerCommands(activities: Command): void {
  sub(activities, 'grant-manager <activity> <users...>', 'Make users (usernames or ids) managers of the activity; a participant becomes a manager instead').action(
    async (activity: string, users: string[], o: JsonOption) => {
      const r = await changeMembers(activity, users, (ctx, account, m) =>
        m?.role?.builtInKey === 'manager' ? { keep: 'already a manager' } : { now: 'manager', run: grantOf(ctx, account, 'manager') },
      );
      report(o, r, 'Made managers');
    },
  );

  sub(activities, 'revoke-manager <activity> <users...>', 'Take the manager role away from users: they leave the activity (enrol them again to make them participants)').action(
    async (activity: string, users: string[], o: JsonOption) => {
      const r = await changeMembers(activity, users, (ctx, _account, m) => (m?.role?.builtInKey === 'manager' ? { now: null, run: ungrant(ctx, m) } : { keep: 'not a manager' }));
      report(o, r, 'No longer managers');
    },
  );
}
