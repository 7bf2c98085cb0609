import { jsonTooDeep, MAX_JSON_DEPTH, ops } from '@judge/contract';
import type Koa from 'koa';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Api } from '../../http/api.js';
import { clientAddress, type Ctx, type RequestState } from '../../http/context.js';
import { ApiError, validation } from '../../http/errors.js';
import { multipartUpload } from '../files/routes.js';
import type { SubmissionsService, SubmitInput, SubmitPlan } from './service.js';

interface FormidableFile {
  filepath: string;
  originalFilename: string | null;
}

const SHA256 = /^[0-9a-fA-F]{64}$/;
const FILE_NAME = /^[^/\\\0]{1,255}$/;
const PROPS_BYTES = 256 * 1024;
/** Text parts besides the code: the name, the props, the checksum, the device. */
const FIELDS_BYTES = PROPS_BYTES + 4096;

/** The plan each submit request made before its body was read, for the handler that stores it. */
const plans = new WeakMap<object, SubmitPlan>();

/**
 * Reads the parts of a submission (CONTRACT §9): a file part, or code with a fileName; props as a
 * JSON object; the sha256 of the stored bytes. Pasted code is written to the incoming folder so
 * that it is stored and checked like an uploaded file. Anything refused leaves nothing on disk.
 */
async function readParts(ctx: Ctx, incomingDir: string, plan: SubmitPlan): Promise<Omit<SubmitInput, 'ipAddress'>> {
  const req = ctx.request as unknown as { files?: Record<string, FormidableFile | FormidableFile[]>; body?: Record<string, unknown> };
  const uploaded = Object.values(req.files ?? {}).flat();
  const cleanup = () => Promise.all(uploaded.map((f) => rm(f.filepath, { force: true })));
  try {
    const body = req.body ?? {};
    const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : undefined);
    const code = text('code');
    if (uploaded.length > 1) throw ApiError.of('file.tooMany', 'A submission has one file part', { file: ['only one'] });
    const file = uploaded[0];
    if (file && code !== undefined) throw validation('code', 'send a file part or code, not both');
    if (!file && code === undefined) throw ApiError.of('submission.empty', 'The submission has neither a file part nor code', { file: ['required'] });
    const fileName = file ? (file.originalFilename ?? '').replace(/[\\/\0]/g, '_').slice(0, 255) || 'source' : text('fileName');
    if (!fileName) throw ApiError.of('submission.fileName.missing', 'Pasted code needs a fileName (its extension names the language)', { fileName: ['required'] });
    if (!FILE_NAME.test(fileName)) throw validation('fileName', 'a plain file name of at most 255 characters');
    const sha256 = text('sha256');
    if (!sha256 || !SHA256.test(sha256)) throw validation('sha256', 'must be 64 hex digits');
    let props: Record<string, unknown> | undefined;
    const rawProps = text('props');
    if (rawProps !== undefined) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(rawProps);
      } catch {
        throw validation('props', 'must be a JSON object');
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw validation('props', 'must be a JSON object');
      if (jsonTooDeep(parsed)) throw validation('props', `must nest at most ${MAX_JSON_DEPTH} deep`);
      if (Buffer.byteLength(rawProps) > PROPS_BYTES) throw validation('props', `must be at most ${PROPS_BYTES} bytes of JSON`);
      props = parsed as Record<string, unknown>;
    }
    const deviceId = text('deviceId');
    if (deviceId !== undefined && (deviceId.length === 0 || deviceId.length > 128)) throw validation('deviceId', 'must be 1 to 128 characters');
    let tempPath: string;
    if (file) tempPath = file.filepath;
    else {
      // multipart turns every line break of a text part into CRLF on the way (as browsers must):
      // pasted code is stored with LF, which is what its author typed and hashed
      const bytes = Buffer.from(code!.replace(/\r\n/g, '\n'), 'utf8');
      if (bytes.length > plan.maxUploadBytes) throw new ApiError(413, 'payload_too_large', `The code is larger than this problem's limit of ${plan.maxUploadBytes} bytes`);
      tempPath = join(incomingDir, `code-${randomUUID()}`);
      await writeFile(tempPath, bytes);
    }
    return { upload: { tempPath, name: fileName, declaredSha256: sha256 }, props, deviceId };
  } catch (e) {
    await cleanup();
    throw e;
  }
}

export function submissionsRoutes(api: Api, submissions: SubmissionsService, incomingDir: string): void {
  // every rule that does not need the bytes is checked before a byte of them is read
  const planStep: Koa.Middleware<RequestState> = async (ctx, next) => {
    const p = ctx.params as { idOrSlug?: string; problemSlug?: string };
    plans.set(ctx, submissions.plan(ctx.state.actor!, p.idOrSlug ?? '', p.problemSlug ?? '', clientAddress(ctx as Ctx)));
    await next();
  };
  const limits = (ctx: Ctx) => {
    const plan = plans.get(ctx)!;
    return { fileBytes: plan.maxUploadBytes, fieldBytes: plan.maxUploadBytes + FIELDS_BYTES, files: 2 };
  };
  api.bind(
    ops.submit,
    async ({ actor, ctx }) => {
      const plan = plans.get(ctx)!;
      const parts = await readParts(ctx, incomingDir, plan);
      const created = await submissions.submit(actor, plan, { ...parts, ipAddress: clientAddress(ctx) });
      ctx.set('Location', `/api/v1/activities/${plan.activity.slug}/submissions/${created.id}`);
      return created;
    },
    [planStep, multipartUpload(incomingDir, limits)],
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
