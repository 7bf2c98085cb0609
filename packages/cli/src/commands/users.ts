import { ops, type ManagedUser } from '@judge/contract';
import type { Command } from 'commander';
import { api } from '../client.js';
import { requestOf } from '../class-list.js';
import { emit, fields, plural, table, when, type JsonOption } from '../output.js';
import { allPages, resolveUser } from '../resolve.js';
import { positive, sub } from './common.js';
import { importCommand } from './users-import.js';
import { userAccountCommands } from './users-sessions.js';
import { mergeCommands } from './users-merge.js';
import { deletionRequestCommands } from './users-deletion.js';
import { temporaryAndApproveCommands } from './users-temporary.js';

const name = (u: { firstName?: string | undefined; lastName?: string | undefined }) => [u.firstName, u.lastName].filter(Boolean).join(' ');

function usersTable(list: ManagedUser[]): string {
  return table(
    ['id', 'username', 'name', 'email', 'created', 'last seen', 'blocked'],
    list.map((u) => [u.id, u.username, name(u), u.email, when(u.createdAt), when(u.lastSeenAt), u.blockedAt ? `since ${when(u.blockedAt)}${u.blockedReason ? `: ${u.blockedReason}` : ''}` : '']),
  );
}

// ---------------------------------------------------------------- commands

export function usersCommands(program: Command): void {
  const users = program.command('users').description('Accounts: create, list, block, reset passwords, temporary guests, approval, import participants from CSV');
  createAndList(users);
  blockResetAndShow(users);
  userAccountCommands(users);
  mergeCommands(users);
  temporaryAndApproveCommands(users);
  importCommand(users);
  deletionRequestCommands(users);
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
    const m = await c.call(ops.getManagedUser, { params: { id: u.id } });
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
        ['two-factor', m.twoFactorEnabled ? 'on' : 'off'],
        ['grants', m.grantCount],
      ]),
    );
  });
}
