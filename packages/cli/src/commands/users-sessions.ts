import { ops } from '@judge/contract';
import type { Command } from 'commander';
import { api } from '../client.js';
import { emit, plural, table, when, type JsonOption } from '../output.js';
import { resolveUser } from '../resolve.js';
import { sub } from './common.js';

/** `users edit`, `users sessions` and `users sign-out`: what the staff page of one user does. */
export function userAccountCommands(users: Command): void {
  sub(users, 'edit <user>', "Change an account's names, address, note, tags or expiry ('' clears a field)")
    .option('--first-name <name>', 'first name')
    .option('--last-name <name>', 'last name')
    .option('--email <address>', 'email address')
    .option('--note <text>', 'a note only staff see')
    .option('--tags <list>', 'tags, separated by commas')
    .option('--expires <instant>', 'when the account stops signing in (RFC 3339)')
    .option('--no-two-factor', 'turn its two-factor sign-in off (its owner lost the authenticator and the recovery codes); only the owner turns it on')
    .action(async (user: string, o: JsonOption & { firstName?: string; lastName?: string; email?: string; note?: string; tags?: string; expires?: string; twoFactor?: boolean }) => {
      const c = await api();
      const u = await resolveUser(c, user);
      // an option not given leaves its field alone; given empty, it clears the field
      const clear = (v: string) => v.trim() || null;
      const body: { firstName?: string | null; lastName?: string | null; email?: string | null; note?: string | null; expiresAt?: string | null; tags?: string[]; twoFactorEnabled?: false } = {};
      if (o.firstName !== undefined) body.firstName = clear(o.firstName);
      if (o.lastName !== undefined) body.lastName = clear(o.lastName);
      if (o.email !== undefined) body.email = clear(o.email);
      if (o.note !== undefined) body.note = clear(o.note);
      if (o.expires !== undefined) body.expiresAt = clear(o.expires);
      if (o.tags !== undefined) body.tags = o.tags.split(',').map((s) => s.trim()).filter(Boolean);
      if (o.twoFactor === false) body.twoFactorEnabled = false;
      const saved = await c.call(ops.updateUser, { params: { id: u.id }, body });
      emit(o, saved, () => `Saved ${saved.username}.`);
    });

  sub(users, 'sessions <user>', 'List where an account is signed in, newest first').action(async (user: string, o: JsonOption) => {
    const c = await api();
    const u = await resolveUser(c, user);
    const list = await c.call(ops.listUserSessions, { params: { userId: u.id } });
    emit(o, list, () =>
      list.length
        ? `${table(
            ['id', 'client', 'address', 'signed in', 'last request', 'sockets'],
            list.map((s) => [s.id, s.userAgent, s.ipAddress, when(s.startedAt), when(s.lastRequestAt), s.connections]),
          )}\n${plural(list.length, 'session')}`
        : `${u.username} is not signed in anywhere.`,
    );
  });

  sub(users, 'sign-out <user>', 'End every session of an account (its open pages sign out), or one with --session')
    .option('--session <id>', 'end only this session (see users sessions)')
    .action(async (user: string, o: JsonOption & { session?: string }) => {
      const c = await api();
      const u = await resolveUser(c, user);
      if (o.session) await c.call(ops.endUserSession, { params: { userId: u.id, id: o.session } });
      else await c.call(ops.endUserSessions, { params: { userId: u.id } });
      emit(o, { userId: u.id, ended: o.session ?? 'all' }, () => (o.session ? `Ended session ${o.session} of ${u.username}.` : `Signed ${u.username} out everywhere.`));
    });
}
