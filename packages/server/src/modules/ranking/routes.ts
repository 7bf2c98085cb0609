import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { RankingService } from './service.js';

export function rankingRoutes(api: Api, ranking: RankingService): void {
  api.bind(ops.getRanking, async ({ actor, params, query, ctx }) => {
    // written here rather than returned: the service keeps the rows' JSON between changes
    ctx.type = 'application/json';
    ctx.body = await ranking.json(actor, params.idOrSlug, query.seriesId, query.view ?? 'own');
  });
}
