import { notFound, ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import { sendBlob } from '../../http/downloads.js';
import type { FilesService } from '../files/index.js';
import type { JobsService } from './jobs.js';
import type { TrialsService } from './trials.js';

/** An AbortSignal that fires when the client goes away, so a long poll stops waiting for nobody. */
function whileConnected(ctx: { req: NodeJS.EventEmitter; res: NodeJS.EventEmitter & { writableFinished: boolean } }): AbortSignal {
  const ac = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) ac.abort();
  });
  return ac.signal;
}

/** The judging side of the runner protocol (jobs, trials, the files of held work) and the managers' trials. */
export function judgingRoutes(api: Api, jobs: JobsService, trials: TrialsService, files: FilesService): void {
  // jobs
  api.bind(ops.claimJob, async ({ runner, body, ctx }) => {
    const job = await jobs.claim(runner, body, whileConnected(ctx));
    if (!job) {
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    return job;
  });
  api.bind(ops.renewJobLease, ({ runner, params, body }) => jobs.renew(runner, params.jobId, body.leaseToken, body.leaseSeconds));
  api.bind(ops.releaseJob, ({ runner, params, body }) => jobs.release(runner, params.jobId, body.leaseToken));
  api.bind(ops.jobProgress, ({ runner, params, body }) => jobs.progress(runner, params.jobId, body));
  api.bind(ops.reportJob, ({ runner, params, body }) => jobs.report(runner, params.jobId, body));
  api.bind(ops.attachJobFile, ({ runner, params, body }) => jobs.attach(runner, params.jobId, body));
  api.bind(ops.downloadRunnerFile, async ({ runner, params, ctx }) => {
    const f = (await jobs.mayFetch(runner, params.id)) ? await files.find(params.id) : undefined;
    if (!f) throw notFound('file');
    sendBlob(ctx, files.blobs, f);
  });

  // trials
  api.bind(ops.claimTrial, async ({ runner, body, ctx }) => {
    const trial = await trials.claim(runner, body, whileConnected(ctx));
    if (!trial) {
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    return trial;
  });
  api.bind(ops.renewTrialLease, ({ runner, params, body }) => trials.renew(runner, params.trialId, body.leaseToken, body.leaseSeconds));
  api.bind(ops.reportTrial, ({ runner, params, body }) => trials.report(runner, params.trialId, body));
  api.bind(ops.createTrial, async ({ actor, body, ctx }) => {
    const t = await trials.create(actor, body);
    ctx.set('Location', `/api/v1/trials/${t.id}`);
    return t;
  });
  api.bind(ops.getTrial, ({ actor, params }) => trials.get(actor, params.trialId));
}
