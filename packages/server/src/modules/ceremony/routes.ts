import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { CeremonyService } from './service.js';

export function ceremonyRoutes(api: Api, ceremony: CeremonyService): void {
  api.bind(ops.getCeremony, ({ actor, params }) => ceremony.get(actor, params.idOrSlug));
  api.bind(ops.setCeremonyStep, ({ actor, params, body }) => ceremony.setStep(actor, params.idOrSlug, body.step));
}
