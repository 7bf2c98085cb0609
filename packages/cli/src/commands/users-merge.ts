import { ops, type MergePreview, type MergeRecord } from '@judge/contract';
import type { Command } from 'commander';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, fields, table, when, type JsonOption } from '../output.js';
import { resolveUser } from '../resolve.js';
import { sub } from './common.js';

const describePreview = (p: MergePreview): string =>
  [
    fields([
      ['from', `${p.sourceLogin} (${p.sourceName})${p.sourceIsTemporary ? ', temporary' : ''}`],
      ['into', `${p.targetLogin} (${p.targetName})`],
      ['submissions', p.submissions],
      ['questions', p.questions],
      ['activities', p.activityNames.join(', ') || '(none)'],
    ]),
    p.blockers.length ? `Cannot merge:\n${p.blockers.map((b) => `  - ${b}`).join('\n')}` : 'Nothing stands in the way: run again without --preview to merge.',
  ].join('\n');

const describeRecord = (m: MergeRecord): string =>
  `${m.sourceLogin} → ${m.targetLogin}, merged ${when(m.mergedAt)}${m.undoneAt ? `, undone ${when(m.undoneAt)}` : m.sourceAnonymisedAt ? ', final' : `, undo possible until ${when(m.anonymiseAfter)}`} (merge ${m.id})`;

/** `users merge`, `users merges` and `users undo-merge`: one person's two accounts made one. */
export function mergeCommands(users: Command): void {
  sub(users, 'merge <source> <target>', "Merge the source account into the target: its submissions, questions, memberships and files move, the source is blocked; undoable for 30 days")
    .option('--preview', 'only show what would move and what stands in the way')
    .action(async (source: string, target: string, o: JsonOption & { preview?: boolean }) => {
      const c = await api();
      const [s, t] = [await resolveUser(c, source), await resolveUser(c, target)];
      const body = { targetUserId: t.id };
      if (o.preview) {
        const p = await c.call(ops.previewMerge, { params: { id: s.id }, body });
        return emit(o, p, () => describePreview(p));
      }
      const m = await c.call(ops.mergeUsers, { params: { id: s.id }, body });
      emit(o, m, () => `Merged: ${describeRecord(m)}.\nUndo with: judgectl users undo-merge ${m.id}`);
    });

  sub(users, 'merges <user>', 'List the merges an account was the source or the target of').action(async (user: string, o: JsonOption) => {
    const c = await api();
    const u = await resolveUser(c, user);
    const list = await c.call(ops.listUserMerges, { params: { id: u.id } });
    emit(o, list, () =>
      list.length
        ? table(
            ['merge', 'from', 'into', 'merged', 'state'],
            list.map((m) => [m.id, m.sourceLogin, m.targetLogin, when(m.mergedAt), m.undoneAt ? 'undone' : m.canUndo ? `undoable until ${when(m.anonymiseAfter)}` : 'final']),
          )
        : `${u.username} was never merged.`,
    );
  });

  sub(users, 'undo-merge <mergeId>', 'Undo a merge: what moved goes back, and the source account is unblocked').action(async (mergeId: string, o: JsonOption) => {
    if (!/^[0-9a-f-]{36}$/.test(mergeId)) throw new CliError(`not a merge id: ${mergeId} (judgectl users merges USER lists them)`);
    const m = await (await api()).call(ops.undoMerge, { params: { mergeId } });
    emit(o, m, () => `Undone: ${describeRecord(m)}.`);
  });
}
