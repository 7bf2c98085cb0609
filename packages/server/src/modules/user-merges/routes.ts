import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { UserMergesService } from './service.js';

export function userMergesRoutes(api: Api, merges: UserMergesService): void {
  api.bind(ops.previewMerge, ({ actor, params, body }) => merges.preview(actor, params.id, body.targetUserId));
  api.bind(ops.mergeUsers, ({ actor, params, body }) => merges.merge(actor, params.id, body.targetUserId));
  api.bind(ops.undoMerge, ({ actor, params }) => merges.undo(actor, params.mergeId));
  api.bind(ops.listUserMerges, ({ actor, params }) => merges.list(actor, params.id));
}
