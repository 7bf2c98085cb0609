import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { AwardsService } from './service.js';

export function awardsRoutes(api: Api, awards: AwardsService): void {
  api.bind(ops.finalizeActivity, ({ actor, params }) => awards.finalize(actor, params.idOrSlug));
  api.bind(ops.reopenActivity, ({ actor, params }) => awards.reopen(actor, params.idOrSlug));
  api.bind(ops.listActivityAwards, ({ actor, params }) => awards.list(actor, params.idOrSlug));
  api.bind(ops.updateActivityAward, ({ actor, params, body }) => awards.setCitation(actor, params.idOrSlug, params.key, body.citation));
}
