import { ApiError, ops, SUBMIT_PROPS_BYTES, type SubmitFormParts } from '@judge/contract';
import type Koa from 'koa';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Api } from '../../http/api.js';
import { clientAddress, type Ctx, type RequestState } from '../../http/context.js';
import { multipartUpload } from '../../http/uploads.js';
import type { SubmissionsService, SubmitInput, SubmitPlan } from './service.js';

/** Text parts besides the code: the name, the props, the checksum, the device. */
const FIELDS_BYTES = SUBMIT_PROPS_BYTES + 4096;

type SubmitParts = z.output<typeof SubmitFormParts>;

/** The plan each submit request made before its body was read, for the handler that stores it. */
const plans = new WeakMap<object, SubmitPlan>();

/**
 * The uploads a validated submission form stands for (decisions §9). Pasted code is written to the
 * incoming folder so that it is stored and checked like an uploaded file.
 */
async function uploadOf(form: SubmitParts, incomingDir: string, plan: SubmitPlan): Promise<Omit<SubmitInput, 'ipAddress'>> {
  const rest = { props: form.props, deviceId: form.deviceId };
  if (form.uploads) return { uploads: form.uploads, ...rest };
  // multipart turns every line break of a text part into CRLF on the way (as browsers must):
  // pasted code is stored with LF, which is what its author typed and hashed
  const bytes = Buffer.from(form.code!.replace(/\r\n/g, '\n'), 'utf8');
  if (bytes.length > plan.maxUploadBytes) throw ApiError.of('payload_too_large', `The code is larger than this problem's limit of ${plan.maxUploadBytes} bytes`);
  const tempPath = join(incomingDir, `code-${randomUUID()}`);
  await writeFile(tempPath, bytes);
  return { uploads: [{ tempPath, name: form.fileName, declaredSha256: form.sha256 }], ...rest };
}

/** More file parts than the assignment takes: 422 file.tooMany naming the limit. */
function refuseTooMany(plan: SubmitPlan, count: number): void {
  if (count <= plan.maxAttachments) return;
  const limit = plan.maxAttachments === 1 ? 'one file' : `at most ${plan.maxAttachments} files`;
  const has = count > plan.maxAttachments + 1 ? `more than ${plan.maxAttachments + 1}` : String(count);
  throw ApiError.of('file.tooMany', `This problem takes ${limit} per submission (maxAttachments); the submission has ${has}`, {
    file: [`at most ${plan.maxAttachments} file parts`],
  });
}

/** formidable's code for a form with more file parts than it was told to read. */
const MAX_FILES_EXCEEDED = 1015;

export function submissionsRoutes(api: Api, submissions: SubmissionsService, incomingDir: string): void {
  // every rule that does not need the bytes is checked before a byte of them is read
  const planStep: Koa.Middleware<RequestState> = async (ctx, next) => {
    const p = ctx.params as { idOrSlug?: string; problemSlug?: string };
    plans.set(ctx, await submissions.plan(ctx.state.actor!, p.idOrSlug ?? '', p.problemSlug ?? '', clientAddress(ctx as Ctx)));
    await next();
  };
  // far more file parts than allowed stop the parser (its parts already removed): the same refusal
  const manyParts: Koa.Middleware<RequestState> = async (ctx, next) => {
    try {
      await next();
    } catch (e) {
      if ((e as { code?: unknown }).code !== MAX_FILES_EXCEEDED) throw e;
      refuseTooMany(plans.get(ctx)!, plans.get(ctx)!.maxAttachments + 2);
    }
  };
  const limits = (ctx: Ctx) => {
    const plan = plans.get(ctx)!;
    // one part past the limit is still read, so that it is refused as file.tooMany naming the limit
    return { fileBytes: plan.maxUploadBytes, fieldBytes: plan.maxUploadBytes + FIELDS_BYTES, files: plan.maxAttachments + 1 };
  };
  api.bind(
    ops.submit,
    async ({ actor, form, ctx }) => {
      const plan = plans.get(ctx)!;
      // before the bytes are kept anywhere: a refused upload leaves nothing behind
      refuseTooMany(plan, form.uploads?.length ?? 1);
      submissions.refuseUnjudgeable(plan, form.uploads?.map((u) => u.name) ?? [form.fileName], form.props);
      const parts = await uploadOf(form, incomingDir, plan);
      const created = await submissions.submit(actor, plan, { ...parts, ipAddress: clientAddress(ctx) });
      ctx.set('Location', `/api/v1/activities/${plan.activity.slug}/submissions/${created.id}`);
      return created;
    },
    [planStep, manyParts, multipartUpload(incomingDir, limits)],
  );
  api.bind(ops.listOwnSubmissions, ({ actor, params, query }) => submissions.listOwn(actor, params.idOrSlug, query));
  api.bind(ops.getOwnSubmission, ({ actor, params }) => submissions.getOwn(actor, params.idOrSlug, params.id));

  api.bind(ops.listSubmissions, ({ actor, query }) => submissions.list(actor, query));
  api.bind(ops.getSubmission, ({ actor, params }) => submissions.get(actor, params.id));
  api.bind(ops.rejudgeSubmission, ({ actor, params }) => submissions.rejudge(actor, params.id));
  api.bind(ops.cancelAttempt, ({ actor, params }) => submissions.cancel(actor, params.submissionId, params.attemptId));
  api.bind(ops.setSubmissionExcluded, ({ actor, params, body }) => submissions.setExcluded(actor, params.id, body));
  api.bind(ops.rejudgeAssignment, ({ actor, params }) => submissions.rejudgeAssignment(actor, params.assignmentId));
}
