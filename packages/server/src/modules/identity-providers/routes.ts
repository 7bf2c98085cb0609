import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { IdentityProvidersService } from './service.js';

export function identityProvidersRoutes(api: Api, providers: IdentityProvidersService): void {
  api.bind(ops.listProviders, ({ actor }) => providers.list(actor));
  api.bind(ops.createProvider, async ({ actor, body, ctx }) => {
    const p = await providers.create(actor, body);
    ctx.set('Location', `/api/v1/identity/providers/${p.id}`);
    return p;
  });
  api.bind(ops.getProvider, ({ actor, params }) => providers.get(actor, params.id));
  api.bind(ops.updateProvider, ({ actor, params, body }) => providers.update(actor, params.id, body));
  api.bind(ops.deleteProvider, ({ actor, params }) => providers.remove(actor, params.id));
}
