import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { PrintoutsService } from './service.js';

export function printoutsRoutes(api: Api, printouts: PrintoutsService): void {
  api.bind(ops.listPrintouts, ({ actor, query }) => printouts.list(actor, query));
  api.bind(ops.listPrintoutActivities, ({ actor }) => printouts.activities(actor));
  api.bind(ops.getPrintout, ({ actor, params }) => printouts.get(actor, params.id));
  api.bind(ops.getPrintoutPdf, async ({ actor, params, ctx }) => {
    const pdf = await printouts.pdf(actor, params.id);
    ctx.set('Content-Type', 'application/pdf');
    ctx.set('Content-Disposition', `inline; filename="printout-${params.id}.pdf"`);
    ctx.body = pdf;
  });
  api.bind(ops.claimPrintout, ({ actor, params }) => printouts.claim(actor, params.id));
  api.bind(ops.releasePrintout, ({ actor, params }) => printouts.release(actor, params.id));
  api.bind(ops.resolvePrintout, ({ actor, params, body }) => printouts.resolve(actor, params.id, body.note));
  api.bind(ops.listOwnPrintouts, ({ actor, params, query }) => printouts.listOwn(actor, params.idOrSlug, query));
  api.bind(ops.requestPrintout, async ({ actor, params, body, ctx }) => {
    const p = await printouts.request(actor, params.idOrSlug, body);
    ctx.set('Location', `/api/v1/printouts/${p.id}`);
    return p;
  });
}
