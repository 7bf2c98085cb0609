import { clampPaging, ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { UsersService } from './service.js';

export function usersRoutes(api: Api, users: UsersService): void {
  api.bind(ops.lookupUsers, ({ actor, query }) => users.lookup(actor, query.q));
  api.bind(ops.createUser, async ({ actor, body, ctx }) => {
    const issued = await users.create(actor, body);
    ctx.set('Location', `/api/v1/users/${issued.userId}`);
    return issued;
  });
  api.bind(ops.listManagedUsers, ({ actor, query }) => users.listManaged(actor, { ...query, ...clampPaging(query) }));
  api.bind(ops.getManagedUser, ({ actor, params }) => users.getManaged(actor, params.id));
  api.bind(ops.updateUser, ({ actor, params, body }) => users.update(actor, params.id, body));
  api.bind(ops.setUserBlocked, ({ actor, params, body }) => users.setBlocked(actor, params.id, body.blocked, body.reason));
  api.bind(ops.approveUser, ({ actor, params }) => users.approve(actor, params.id));
  api.bind(ops.resetUserPassword, ({ actor, params }) => users.resetPassword(actor, params.id));
  api.bind(ops.listUserSessions, ({ actor, params }) => users.sessionsOf(actor, params.userId));
  api.bind(ops.endUserSession, ({ actor, params }) => users.endSession(actor, params.userId, params.id));
  api.bind(ops.endUserSessions, ({ actor, params }) => users.endSessions(actor, params.userId));
}
