import { z } from 'zod';
import { jsonTooDeep, MAX_JSON_DEPTH } from '../wire.js';

/**
 * Multipart forms as the server validates them (the `form` of a multipart operation): the text
 * parts by name, and every file part, already on disk, under `files`. The form schemas describe
 * the same parts as the operations' `body` (which openapi.json documents), with the rules that span
 * parts. A rule whose refusal has its own catalogued code names it in its issue's `params.code`,
 * with the refusal's `params.detail`; any other issue is a 422 validation_failed.
 */

/** A file part of a multipart form: its part name, its file name made safe (possibly empty), where its bytes are. */
export const FilePart = z.object({ field: z.string(), fileName: z.string(), tempPath: z.string(), mimeType: z.string() });
export type FilePart = z.infer<typeof FilePart>;

const HEX64 = /^[0-9a-fA-F]{64}$/;
/** A refusal with its own catalogued code, as form rules report it. */
function refuse(ctx: z.RefinementCtx, field: string, message: string, code: string, detail: string): void {
  ctx.addIssue({ code: 'custom', path: [field], message, params: { code, detail } });
}

/** The parts of a file upload: one part named file (other file parts are ignored) and its declared sha256. */
export const FileUploadForm = z
  .object({ files: z.array(FilePart), sha256: z.string().optional() })
  .superRefine((f, ctx) => {
    if (!f.files.some((p) => p.field === 'file')) refuse(ctx, 'file', 'required', 'file.required', 'The upload has no part named file');
    else if (!f.sha256 || !HEX64.test(f.sha256)) ctx.addIssue({ code: 'custom', path: ['sha256'], message: 'must be 64 hex digits' });
  })
  .transform((f) => ({ file: f.files.find((p) => p.field === 'file')!, sha256: f.sha256! }));

/** The largest props of a submission, as JSON text. */
export const SUBMIT_PROPS_BYTES = 256 * 1024;
const FILE_NAME = /^[^/\\\0]{1,255}$/;

function parsedProps(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

const propsObject = (parsed: unknown): boolean => !!parsed && typeof parsed === 'object' && !Array.isArray(parsed);

/** The sha256 part of a submission: one digest, or one per file part in their order, comma-separated. */
function digests(raw: string | undefined): string[] | undefined {
  const list = raw?.split(',').map((d) => d.trim());
  return list && list.every((d) => HEX64.test(d)) ? list : undefined;
}

/** A file part's name as stored: `source` for a part with none. */
const partName = (p: FilePart): string => p.fileName || 'source';

/**
 * The parts of a submission (decisions §9): file parts (all named file; how many the assignment's
 * maxAttachments allows is the handler's check), or pasted code with a fileName; props as a JSON
 * object; the sha256 of the stored bytes (several files: one digest per file part in their order,
 * comma-separated, in the one sha256 part); a device id. Checked in the order clients learn of
 * them: the file parts, then the names, the checksums, the props and the device.
 */
export const SubmitFormParts = z
  .object({
    files: z.array(FilePart),
    code: z.string().optional(),
    fileName: z.string().optional(),
    props: z.string().optional(),
    sha256: z.string().optional(),
    deviceId: z.string().optional(),
  })
  .superRefine((f, ctx) => {
    const file = f.files[0];
    if (f.files.some((p) => p.field !== 'file')) return refuse(ctx, 'file', 'only parts named file', 'file.tooMany', 'A submission\'s file parts are all named file');
    if (file && f.code !== undefined) return void ctx.addIssue({ code: 'custom', path: ['code'], message: 'send a file part or code, not both' });
    if (!file && f.code === undefined) return refuse(ctx, 'file', 'required', 'submission.empty', 'The submission has neither a file part nor code');
    const names = file ? f.files.map(partName) : f.fileName ? [f.fileName] : [];
    if (!names.length) return refuse(ctx, 'fileName', 'required', 'submission.fileName.missing', 'Pasted code needs a fileName (its extension names the language)');
    const bad = (field: string, message: string) => void ctx.addIssue({ code: 'custom', path: [field], message });
    if (!names.every((n) => FILE_NAME.test(n))) return bad('fileName', 'a plain file name of at most 255 characters');
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice) return bad('file', `two file parts are named ${twice}: each file of a submission has its own name`);
    const sums = digests(f.sha256);
    if (!sums || sums.length !== names.length) {
      return bad('sha256', names.length > 1 ? `must be ${names.length} digests of 64 hex digits, one per file part in their order, comma-separated` : 'must be 64 hex digits');
    }
    const props = f.props === undefined ? undefined : parsedProps(f.props);
    if (f.props !== undefined && !propsObject(props)) return bad('props', 'must be a JSON object');
    if (props !== undefined && jsonTooDeep(props)) return bad('props', `must nest at most ${MAX_JSON_DEPTH} deep`);
    if (f.props !== undefined && new TextEncoder().encode(f.props).length > SUBMIT_PROPS_BYTES) return bad('props', `must be at most ${SUBMIT_PROPS_BYTES} bytes of JSON`);
    if (f.deviceId !== undefined && (f.deviceId.length === 0 || f.deviceId.length > 128)) return bad('deviceId', 'must be 1 to 128 characters');
  })
  .transform((f) => {
    const sums = digests(f.sha256)!;
    return {
      file: f.files[0],
      code: f.code,
      fileName: f.files[0] ? partName(f.files[0]) : f.fileName!,
      props: f.props === undefined ? undefined : (JSON.parse(f.props) as Record<string, unknown>),
      sha256: sums[0]!,
      deviceId: f.deviceId,
      /** Every file part with its name and declared digest, in the form's order (undefined for pasted code). */
      uploads: f.files.length ? f.files.map((p, i) => ({ tempPath: p.tempPath, name: partName(p), declaredSha256: sums[i]! })) : undefined,
    };
  });
