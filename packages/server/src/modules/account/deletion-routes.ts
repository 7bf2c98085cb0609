import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import { clientAddress } from '../../http/context.js';
import type { LimitStore } from '../../http/limits.js';
import { perAddress } from '../../http/middleware.js';
import type { DeletionRequests } from './deletion-requests.js';

export function deletionRequestRoutes(api: Api, requests: DeletionRequests, limits: LimitStore, perMinute: number): void {
  // anonymous and answered after a secret comparison: limited per address, as the sign-in routes are
  const limit = perAddress(limits.limiter({ points: perMinute, duration: 60, keyPrefix: 'deletion-requests' }));
  api.bind(ops.requestProviderDeletion, ({ params, body, ctx }) => requests.receive(params.slug, ctx.get('authorization') || undefined, body, clientAddress(ctx)), [limit]);
  api.bind(ops.listDeletionRequests, ({ actor }) => requests.list(actor));
  api.bind(ops.haltDeletionRequest, ({ actor, params }) => requests.halt(actor, params.id));
  api.bind(ops.carryOutDeletionRequest, ({ actor, params }) => requests.carryOut(actor, params.id));
}
