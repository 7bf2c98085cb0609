import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { AccountService } from './service.js';

export function accountRoutes(api: Api, account: AccountService): void {
  api.bind(ops.getAccount, ({ actor }) => account.get(actor));
  api.bind(ops.updateAccount, ({ actor, body }) => account.update(actor, body));
  api.bind(ops.changePassword, ({ actor, body }) => account.changePassword(actor, body.currentPassword, body.newPassword));
  api.bind(ops.listAccountSessions, ({ actor }) => account.sessions(actor));
  api.bind(ops.endAccountSession, ({ actor, params }) => account.endSession(actor, params.id));
}
