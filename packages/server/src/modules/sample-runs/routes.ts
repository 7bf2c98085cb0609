import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import { clientAddress, type Ctx } from '../../http/context.js';
import type { SampleRunQueue } from '../judging/index.js';
import type { SampleRunsService } from './service.js';

/** The participant's sample runs and the runner's side of them. */
export function sampleRunsRoutes(api: Api, runs: SampleRunsService, queue: SampleRunQueue): void {
  api.bind(ops.runSamples, async ({ actor, params, body, ctx }) => {
    const run = await runs.create(actor, params.idOrSlug, params.problemSlug, clientAddress(ctx as Ctx), body);
    ctx.set('Location', `/api/v1/sample-runs/${run.id}`);
    return run;
  });
  api.bind(ops.getSampleRun, ({ actor, params }) => runs.get(actor, params.sampleRunId));
  api.bind(ops.claimSampleRun, ({ runner, body, ctx }) => {
    const run = queue.claim(runner, body);
    if (!run) {
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    return run;
  });
  api.bind(ops.renewSampleRunLease, ({ runner, params, body }) => queue.renew(runner, params.sampleRunId, body.leaseToken, body.leaseSeconds));
  api.bind(ops.reportSampleRun, ({ runner, params, body }) => queue.report(runner, params.sampleRunId, body));
}
