import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { ParticipantService } from './service.js';

export function participantRoutes(api: Api, participant: ParticipantService): void {
  api.bind(ops.listActivitySeries, ({ actor, params }) => participant.listSeries(actor, params.idOrSlug));
  api.bind(ops.getActivityProblem, ({ actor, params }) => participant.getProblem(actor, params.idOrSlug, params.problemSlug));
}
