import { ops } from '@judge/contract';
import { CSV_BOM, csvLine } from '@judge/sdk';
import type { Command } from 'commander';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { CliError } from '../errors.js';
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
    .option('--out <file>', 'also write the logins and passwords to this CSV file (mode 0600, never overwritten), for printing slips as after users import')
    .action(async (o: JsonOption & { prefix: string; count: number; expires?: string; activity?: string; out?: string }) => {
      const c = await api();
      const activityId = o.activity ? (await resolveActivity(c, o.activity)).id : undefined;
      // made before the accounts, so that a file that cannot be written stops the run with nothing created
      let fd: number | undefined;
      if (o.out) {
        try {
          fd = openSync(o.out, 'wx', 0o600);
        } catch (e) {
          throw new CliError(`cannot create ${o.out}: ${(e as Error).message}; nothing was created`);
        }
      }
      const issued = await c
        .call(ops.createTemporaryUsers, {
          body: { prefix: o.prefix, count: o.count, ...(o.expires ? { expiresAt: o.expires } : {}), ...(activityId ? { activityId } : {}) },
        })
        .catch((e: unknown) => {
          // refused: nothing was created, so the empty file goes too
          if (fd !== undefined) {
            closeSync(fd);
            rmSync(o.out!, { force: true });
          }
          throw e;
        });
      if (fd !== undefined) {
        try {
          writeSync(fd, CSV_BOM + csvLine(['username', 'password', 'userId', 'activity'], ','));
          for (const i of issued) writeSync(fd, csvLine([i.username, i.password, i.userId, o.activity], ','));
        } finally {
          closeSync(fd);
        }
      }
      emit(o, issued, () =>
        [
          table(['username', 'password'], issued.map((i) => [i.username, i.password])),
          `Created ${issued.length} temporary account${issued.length === 1 ? '' : 's'}${o.activity ? `, enrolled in ${o.activity}` : ''}${o.out ? `; their logins and passwords are in ${o.out}` : ''}.`,
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
