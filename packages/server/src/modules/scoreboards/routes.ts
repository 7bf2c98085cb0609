import { ops, unauthenticated } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { Ctx } from '../../http/context.js';
import type { ScoreboardsService } from './service.js';

/** Signed out is allowed here, but a session or token that no longer works is still told so. */
function refuseBadCredentials(ctx: Ctx): void {
  if (!ctx.state.actor && ctx.state.badCredentials) throw unauthenticated('The token or session is not valid (expired, ended or unknown)');
}

export function scoreboardsRoutes(api: Api, boards: ScoreboardsService): void {
  api.bind(ops.getScoreboard, ({ actor, params, ctx }) => {
    refuseBadCredentials(ctx);
    return boards.board(actor, params.idOrSlug);
  });
  api.bind(ops.scoreboardFeed, async ({ actor, params, ctx }) => {
    refuseBadCredentials(ctx);
    await boards.openFeed(ctx, actor, params.idOrSlug);
  });
  api.bind(ops.getDisplayScoreboard, ({ params }) => boards.displayBoard(params.token));
  api.bind(ops.displayFeed, async ({ params, ctx }) => {
    await boards.openDisplayFeed(ctx, params.token);
  });
  api.bind(ops.getDisplayLink, ({ actor, params }) => boards.displayLink(actor, params.idOrSlug));
  api.bind(ops.rotateDisplayLink, ({ actor, params }) => boards.rotateDisplayLink(actor, params.idOrSlug));
  api.bind(ops.removeDisplayLink, async ({ actor, params }) => {
    await boards.removeDisplayLink(actor, params.idOrSlug);
  });
}
