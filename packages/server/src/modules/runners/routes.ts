import { ops } from '@judge/contract';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Api } from '../../http/api.js';
import { clientAddress } from '../../http/context.js';
import { notFound } from '@judge/contract';
import { perAddress } from '../../http/middleware.js';
import { sendBlob } from '../../http/downloads.js';
import { multipartUpload, readUpload } from '../../http/uploads.js';
import type { FilesService } from '../files/service.js';
import type { TrialsService } from '../trials/service.js';
import type { JobsService } from './jobs.js';
import type { RunnersService } from './service.js';

/** Registrations, challenges and token requests per client address and minute. */
const HANDSHAKES_PER_MINUTE = 300;

/** An AbortSignal that fires when the client goes away, so a long poll stops waiting for nobody. */
function whileConnected(ctx: { req: NodeJS.EventEmitter; res: NodeJS.EventEmitter & { writableFinished: boolean } }): AbortSignal {
  const ac = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) ac.abort();
  });
  return ac.signal;
}

export function runnerRoutes(api: Api, runners: RunnersService, jobs: JobsService, trials: TrialsService, files: FilesService, uploadBytes: number): void {
  // the handshake is anonymous: a machine registers and authenticates a few times a day, so a lab
  // of runners behind one address stays far below this, and a flood of made-up keys does not
  const handshake = [perAddress(new RateLimiterMemory({ points: HANDSHAKES_PER_MINUTE, duration: 60 }))];
  api.bind(ops.registerRunner, ({ body, ctx }) => runners.register(body, clientAddress(ctx)), handshake);
  api.bind(ops.runnerChallenge, ({ body }) => runners.challenge(body.fingerprint), handshake);
  api.bind(ops.runnerToken, ({ body, ctx }) => runners.token(body, clientAddress(ctx)), handshake);
  api.bind(ops.runnerHeartbeat, ({ runner, ctx }) => runners.heartbeat(runner, clientAddress(ctx)));

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

  // files
  api.bind(ops.downloadRunnerFile, ({ runner, params, ctx }) => {
    const f = jobs.mayFetch(runner, params.id) ? files.find(params.id) : undefined;
    if (!f) throw notFound('file');
    sendBlob(ctx, files.blobs, f);
  });
  api.bind(
    ops.uploadRunnerFile,
    async ({ runner, ctx }) => {
      const meta = await files.upload(null, readUpload(ctx), { runnerId: runner.runnerId });
      ctx.set('Location', `/api/v1/runner/files/${meta.id}`);
      return meta;
    },
    [multipartUpload(files.blobs.incomingDir, uploadBytes)],
  );
  api.bind(ops.attachRunnerFile, ({ runner, body }) => runners.attachFile(runner, body.fileId, body.name));

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

  // management
  api.bind(ops.listRunners, ({ actor, query }) => runners.list(actor, query));
  api.bind(ops.getRunner, ({ actor, params }) => runners.get(actor, params.id));
  api.bind(ops.approveRunner, ({ actor, params }) => runners.approve(actor, params.id));
  api.bind(ops.revokeRunner, ({ actor, params, body }) => runners.revoke(actor, params.id, body.reason));
  api.bind(ops.setRunnerTags, ({ actor, params, body }) => runners.setTags(actor, params.id, body.tags));
  api.bind(ops.deleteRunner, ({ actor, params }) => runners.delete(actor, params.id));
  api.bind(ops.createTrial, ({ actor, body, ctx }) => {
    const t = trials.create(actor, body);
    ctx.set('Location', `/api/v1/trials/${t.id}`);
    return t;
  });
  api.bind(ops.getTrial, ({ actor, params }) => trials.get(actor, params.trialId));
}
