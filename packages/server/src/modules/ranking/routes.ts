import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { RankingService } from './service.js';

export function rankingRoutes(api: Api, ranking: RankingService): void {
  api.bind(ops.getRanking, ({ actor, params, query }) => ranking.get(actor, params.idOrSlug, query.seriesId));
}
