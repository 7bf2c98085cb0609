import { clampPaging, ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { AccessService } from './service.js';

export function accessRoutes(api: Api, access: AccessService): void {
  api.bind(ops.listRoles, ({ actor, query }) => access.listRoles(actor, query.activityId));
  api.bind(ops.createRole, async ({ actor, body, ctx }) => {
    const role = await access.createRole(actor, body);
    ctx.set('Location', `/api/v1/roles/${role.id}`);
    return role;
  });
  api.bind(ops.updateRole, ({ actor, params, body }) => access.updateRole(actor, params.id, body));
  api.bind(ops.deleteRole, ({ actor, params }) => access.deleteRole(actor, params.id));
  api.bind(ops.listGrants, ({ actor, query }) => access.listGrants(actor, { ...query, ...clampPaging(query) }));
  api.bind(ops.createGrant, async ({ actor, body, ctx }) => {
    const grant = await access.createGrant(actor, body);
    ctx.set('Location', `/api/v1/grants?userId=${encodeURIComponent(grant.userId)}`);
    return grant;
  });
  api.bind(ops.deleteGrant, ({ actor, params }) => access.deleteGrant(actor, params.id));
  api.bind(ops.listPermissions, () => access.catalogue());
  api.bind(ops.myPermissions, ({ actor, query }) => access.mine(actor, query.activityId));
}
