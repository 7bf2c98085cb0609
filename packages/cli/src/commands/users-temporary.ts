import { ops } from '@judge/contract';
import type { Command } from 'commander';
import { api } from '../client.js';
import { emit, table, when, type JsonOption } from '../output.js';
import { resolveActivity, resolveUser } from '../resolve.js';
import { positive, sub } from './common.js';

/** `users temporary` and `users approve`: guest accounts for an event, and letting a self-registered account enrol. */
export function temporaryAndApproveCommands(users: Command): void {
  sub(users, 'temporary', 'Create numbered temporary accounts (guest01, guest02 …); their passwords are printed this once')
    .requiredOption('--prefix <text>', 'what each login starts with, e.g. guest')
    .requiredOption('--count <n>', 'how many (1 to 500)', positive)
    .option('--expires <instant>', 'when they stop signing in (RFC 3339); default: in seven days')
    .option('--activity <idOrSlug>', 'enrol them there as participants')
    .action(async (o: JsonOption & { prefix: string; count: number; expires?: string; activity?: string }) => {
      const c = await api();
      const activityId = o.activity ? (await resolveActivity(c, o.activity)).id : undefined;
      const issued = await c.call(ops.createTemporaryUsers, {
        body: { prefix: o.prefix, count: o.count, ...(o.expires ? { expiresAt: o.expires } : {}), ...(activityId ? { activityId } : {}) },
      });
      emit(o, issued, () =>
        [
          table(['username', 'password'], issued.map((i) => [i.username, i.password])),
          `Created ${issued.length} temporary account${issued.length === 1 ? '' : 's'}${o.activity ? `, enrolled in ${o.activity}` : ''}.`,
          'The passwords are shown this once: print or hand them over now.',
        ].join('\n'),
      );
    });

  sub(users, 'approve <user>', 'Approve a self-registered account, so that it may enrol (with requireApproval on)').action(async (user: string, o: JsonOption) => {
    const c = await api();
    const u = await resolveUser(c, user);
    const approved = await c.call(ops.approveUser, { params: { id: u.id } });
    emit(o, approved, () => `Approved ${approved.username} (since ${when(approved.approvedAt)}).`);
  });
}
