import { ops, type Problem } from '@judge/contract';
import type { Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, fields, type JsonOption } from '../output.js';
import { resolveProblem, resolveUser } from '../resolve.js';
import { sub } from './common.js';

function sharingFields(p: Problem): string {
  return fields([
    ['slug', p.slug],
    ['visibility', p.visibility],
    ['shared with', p.sharedWith.join(', ')],
    ['archived', p.archivedAt ?? 'no'],
  ]);
}

/** Who may read a problem, and its archiving: what the problem's staff page offers, from a terminal. */
export function problemSharingCommands(problems: Command): void {
  sub(problems, 'archive <problem>', 'Archive a problem (slug or id): it leaves the library and takes no new versions or assignments; series that use it keep it')
    .option('--restore', 'restore an archived problem instead')
    .action(async (problem: string, o: JsonOption & { restore?: boolean }) => {
      const c = await api();
      const p = await resolveProblem(c, problem);
      const after = await c.call(ops.setProblemArchived, { params: { id: p.id }, body: { archived: !o.restore } });
      emit(o, after, () => `${o.restore ? 'Restored' : 'Archived'} ${after.slug}.\n${sharingFields(after)}`);
    });

  sub(problems, 'share <problem>', 'Say who may read a problem (slug or id) besides its owner: nobody (--private), some users (--with), or all staff (--instance)')
    .option('--private', 'only its owner (and holders of problem:read:all)')
    .option('--instance', 'every holder of problem:read:own on this judge')
    .option('--with <users>', 'these users, comma-separated user names or ids (replaces the list)')
    .action(async (problem: string, o: JsonOption & { private?: boolean; instance?: boolean; with?: string }) => {
      const chosen = [o.private, o.instance, o.with !== undefined].filter(Boolean).length;
      if (chosen !== 1) throw new CliError('give exactly one of --private, --instance, --with USERS');
      const c = await api();
      const p = await resolveProblem(c, problem);
      const names = (o.with ?? '').split(',').map((u) => u.trim()).filter(Boolean);
      if (o.with !== undefined && !names.length) throw new CliError('--with needs at least one user');
      const users = await Promise.all(names.map((u) => resolveUser(c, u)));
      const body = o.private ? { visibility: 'private' as const } : o.instance ? { visibility: 'instance' as const } : { visibility: 'shared' as const, sharedWith: users.map((u) => u.id) };
      const after = await c.call(ops.setProblemVisibility, { params: { id: p.id }, body });
      emit(o, after, () => `${after.slug} is now ${after.visibility}.\n${sharingFields(after)}`);
    });
}
