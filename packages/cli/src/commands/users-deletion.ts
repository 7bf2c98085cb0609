import { ops, type AccountDeletionRequest } from '@judge/contract';
import type { Command } from 'commander';
import { api } from '../client.js';
import { emit, plural, table, when, type JsonOption } from '../output.js';
import { sub } from './common.js';

const who = (r: AccountDeletionRequest) => r.username ?? '(gone)';

/** `users deletion-requests [halt|carry-out ID]`: the queue of account deletions identity providers asked for. */
export function deletionRequestCommands(users: Command): void {
  const requests = sub(users, 'deletion-requests', 'List account deletion requests (from identity providers), newest first').action(async (o: JsonOption) => {
    const list = await (await api()).call(ops.listDeletionRequests, {});
    emit(o, list, () =>
      list.length
        ? `${table(
            ['id', 'account', 'provider', 'state', 'requested', 'due', 'done', 'note'],
            list.map((r) => [r.id, who(r), r.providerSlug, r.state, when(r.requestedAt), when(r.dueAt), when(r.doneAt), r.note]),
          )}\n${plural(list.length, 'request')}`
        : 'No account deletion requests.',
    );
  });

  sub(requests, 'halt <id>', 'Halt a pending deletion request (or one waiting for an administrator): the account stays').action(async (id: string, _o: JsonOption, cmd: Command) => {
    // `deletion-requests` takes --json too, and commander gives it to the parent wherever it is typed
    const o = cmd.optsWithGlobals<JsonOption>();
    const r = await (await api()).call(ops.haltDeletionRequest, { params: { id } });
    emit(o, r, () => `Halted the deletion of ${who(r)}.`);
  });

  sub(requests, 'carry-out <id>', 'Carry out a deletion request waiting for an administrator (the account holds system permissions): it is anonymised now').action(
    async (id: string, _o: JsonOption, cmd: Command) => {
      const o = cmd.optsWithGlobals<JsonOption>();
      const r = await (await api()).call(ops.carryOutDeletionRequest, { params: { id } });
      emit(o, r, () => `Deleted the account ${who(r)} (its data is anonymised).`);
    },
  );
}
