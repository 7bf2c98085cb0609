import { ops, unauthenticated } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { RankingService } from './service.js';

export function rankingRoutes(api: Api, ranking: RankingService): void {
  api.bind(ops.getRanking, async ({ actor, params, query, ctx }) => {
    // signed out is allowed (a public scoreboard), but a session or token that no longer works is still told so
    if (!actor && ctx.state.badCredentials) throw unauthenticated('The token or session is not valid (expired, ended or unknown)');
    // written here rather than returned: the service keeps the rows' JSON between changes
    ctx.type = 'application/json';
    ctx.body = await ranking.json(actor, params.idOrSlug, query.seriesId, query.view ?? 'own');
  });
}
