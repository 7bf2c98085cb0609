import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import type { LimitStore } from '../../http/limits.js';
import { clientAddress } from '../../http/context.js';
import { perAddress } from '../../http/middleware.js';
import { multipartUpload, uploadOf } from '../../http/uploads.js';
import type { FilesService } from '../files/index.js';
import type { RunnersService } from './service.js';

/** Registrations, challenges and token requests per client address and minute. */
const HANDSHAKES_PER_MINUTE = 300;

/** Registration, the handshake, heartbeats, the runner's own files, and what administrators do with runners. */
export function runnerRoutes(api: Api, runners: RunnersService, files: FilesService, limits: LimitStore, uploadBytes: number): void {
  // the handshake is anonymous: a machine registers and authenticates a few times a day, so a lab
  // of runners behind one address stays far below this, and a flood of made-up keys does not
  const handshake = [perAddress(limits.limiter({ points: HANDSHAKES_PER_MINUTE, duration: 60, keyPrefix: 'runner-handshake' }))];
  api.bind(ops.registerRunner, ({ body, ctx }) => runners.register(body, clientAddress(ctx)), handshake);
  api.bind(ops.runnerChallenge, ({ body }) => runners.challenge(body.fingerprint), handshake);
  api.bind(ops.runnerToken, ({ body, ctx }) => runners.token(body, clientAddress(ctx)), handshake);
  api.bind(ops.runnerHeartbeat, ({ runner, ctx }) => runners.heartbeat(runner, clientAddress(ctx)));

  // files a runner uploads, for a job's attempt or for itself
  api.bind(
    ops.uploadRunnerFile,
    async ({ runner, form, ctx }) => {
      const meta = await files.upload(null, uploadOf(form), { runnerId: runner.runnerId });
      ctx.set('Location', `/api/v1/runner/files/${meta.id}`);
      return meta;
    },
    [multipartUpload(files.blobs.incomingDir, uploadBytes)],
  );
  api.bind(ops.attachRunnerFile, ({ runner, body }) => runners.attachFile(runner, body.fileId, body.name));

  // management
  api.bind(ops.listRunners, ({ actor, query }) => runners.list(actor, query));
  api.bind(ops.getRunner, ({ actor, params }) => runners.get(actor, params.id));
  api.bind(ops.approveRunner, ({ actor, params }) => runners.approve(actor, params.id));
  api.bind(ops.revokeRunner, ({ actor, params, body }) => runners.revoke(actor, params.id, body.reason));
  api.bind(ops.setRunnerTags, ({ actor, params, body }) => runners.setTags(actor, params.id, body.tags));
  api.bind(ops.deleteRunner, ({ actor, params }) => runners.delete(actor, params.id));
  api.bind(ops.createRunnerEnrolmentCode, ({ actor, body }) => runners.codes.create(actor, body));
  api.bind(ops.listRunnerEnrolmentCodes, ({ actor }) => runners.codes.list(actor));
  api.bind(ops.revokeRunnerEnrolmentCode, ({ actor, params }) => runners.codes.revoke(actor, params.id));
}
