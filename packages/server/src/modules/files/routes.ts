import { ops } from '@judge/contract';
import type Koa from 'koa';
import { koaBody } from 'koa-body';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { Api } from '../../http/api.js';
import type { Ctx, RequestState } from '../../http/context.js';
import { ApiError } from '../../http/errors.js';
import type { FilesService, IncomingUpload } from './service.js';

interface FormidableFile {
  filepath: string;
  originalFilename: string | null;
  mimetype: string | null;
}

const SHA256 = /^[0-9a-fA-F]{64}$/;

/** A file formidable is writing; `_writeStream` is its (internal) fs stream, absent before it opens. */
interface OpenedPart {
  filepath: string;
  _writeStream?: Writable;
}

/** Removes what a refused upload wrote, after formidable's stream has let go of each file. */
async function discardParts(parts: OpenedPart[]): Promise<void> {
  await Promise.all(
    parts.map(async (f) => {
      const ws = f._writeStream;
      if (ws && !ws.closed) {
        // a stream destroyed while its open is pending still creates the file: wait for it to close
        const closed = once(ws, 'close').catch(() => undefined);
        ws.destroy();
        await closed;
      }
      await rm(f.filepath, { force: true });
    }),
  );
}

export interface MultipartLimits {
  /** The largest file part. */
  fileBytes: number;
  /** All text parts together. */
  fieldBytes: number;
  files: number;
}

/**
 * The multipart parser for uploads: file parts and a few text parts, streamed to disk. Limits may
 * depend on the request (a submission's follow its problem), so they are asked per request.
 */
export function multipartUpload(incomingDir: string, limitsOf: number | ((ctx: Ctx) => MultipartLimits)): Koa.Middleware<RequestState> {
  const limits = (ctx: Ctx): MultipartLimits => (typeof limitsOf === 'number' ? { fileBytes: limitsOf, fieldBytes: 64 * 1024, files: 1 } : limitsOf(ctx));
  const parser = (opened: OpenedPart[], { fileBytes: maxBytes, fieldBytes, files }: MultipartLimits) =>
    koaBody({
      multipart: true,
      json: false,
      urlencoded: false,
      text: false,
      formidable: {
        uploadDir: incomingDir,
        maxFileSize: maxBytes,
        maxTotalFileSize: maxBytes * files,
        maxFiles: files,
        maxFields: 10,
        maxFieldsSize: fieldBytes,
        allowEmptyFiles: true,
        minFileSize: 0,
        onFileBegin: (_name, file) => void opened.push(file as unknown as OpenedPart),
      },
      onError: (err) => {
        throw err;
      },
    }) as unknown as Koa.Middleware<RequestState>;
  return async (ctx, next) => {
    if (!ctx.is('multipart/form-data')) throw new ApiError(415, 'unsupported_media_type', 'Send the upload as multipart/form-data with parts file and sha256');
    const l = limits(ctx as Ctx);
    // refuse at once what cannot fit, before reading a byte of it
    if (ctx.request.length > l.fileBytes * l.files + l.fieldBytes + 64 * 1024) throw new ApiError(413, 'payload_too_large', `Uploads are limited to ${l.fileBytes} bytes`);
    const opened: OpenedPart[] = [];
    try {
      await parser(opened, l)(ctx, () => {
        // formidable takes a part whose last write failed (a full disk) for complete: its stream knows
        const failed = opened.find((f) => f._writeStream?.errored)?._writeStream?.errored;
        if (failed) throw failed;
        return next();
      });
    } catch (err) {
      // nothing of a refused upload stays on disk, and it is gone before the refusal is answered
      // (a stored upload was moved under its hash, so its temporary path no longer exists)
      await discardParts(opened);
      throw err;
    }
  };
}

/** Reads the file part and the declared sha256 part of a parsed multipart upload. */
export function readUpload(ctx: Ctx): IncomingUpload {
  const req = ctx.request as unknown as { files?: Record<string, FormidableFile | FormidableFile[]>; body?: Record<string, unknown> };
  const all = req.files ?? {};
  const part = all.file;
  const file = Array.isArray(part) ? part[0] : part;
  const extra = Object.values(all).flat().filter((f) => f !== file);
  const declared = req.body?.sha256;
  const fail = (e: ApiError) => {
    // nothing of a refused upload stays on disk
    for (const f of [file, ...extra]) if (f) void import('node:fs/promises').then((fs) => fs.rm(f.filepath, { force: true }));
    return e;
  };
  if (!file) throw fail(ApiError.of('file.required', 'The upload has no part named file', { file: ['required'] }));
  if (typeof declared !== 'string' || !SHA256.test(declared)) {
    throw fail(ApiError.of('validation_failed', 'The sha256 part must be 64 hex digits', { sha256: ['must be 64 hex digits'] }));
  }
  for (const f of extra) void import('node:fs/promises').then((fs) => fs.rm(f.filepath, { force: true }));
  const name = (file.originalFilename ?? 'file').replace(/[\\/\0]/g, '_').slice(0, 255) || 'file';
  return { tempPath: file.filepath, name, mimeType: file.mimetype?.slice(0, 128) || 'application/octet-stream', declaredSha256: declared };
}

const RANGE = /^bytes=(\d*)-(\d*)$/;

/** Sends stored bytes with ETag, conditional 304 and single-range 206 (CONTRACT §11). */
export function sendBlob(ctx: Ctx, files: FilesService, f: { sha256: string; sizeBytes: number; name: string; mimeType: string }): void {
  const etag = `"${f.sha256}"`;
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', 'private, max-age=31536000, immutable');
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Content-Disposition', `attachment; filename="${f.name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(f.name)}`);
  // stored bytes are whatever somebody uploaded: never let a browser run them on this origin
  ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
  const inm = ctx.get('if-none-match');
  if (inm && inm.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  ctx.type = f.mimeType;
  // one range of either form is served; any other Range header gets the whole body (RFC 9110)
  const asked = RANGE.exec(ctx.get('range'));
  const m = asked && (asked[1] !== '' || asked[2] !== '') ? asked : null;
  if (m) {
    let start: number;
    let end: number;
    if (m[1] === '') {
      start = Math.max(0, f.sizeBytes - Number(m[2]));
      end = f.sizeBytes - 1;
    } else {
      start = Number(m[1]);
      end = m[2] === '' ? f.sizeBytes - 1 : Math.min(Number(m[2]), f.sizeBytes - 1);
    }
    if (start > end || start >= f.sizeBytes) {
      ctx.set('Content-Range', `bytes */${f.sizeBytes}`);
      throw new ApiError(416, 'range.unsatisfiable', `The file has ${f.sizeBytes} bytes`);
    }
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${start}-${end}/${f.sizeBytes}`);
    ctx.length = end - start + 1;
    ctx.body = files.blobs.read(f.sha256, { start, end });
    return;
  }
  ctx.status = 200;
  ctx.length = f.sizeBytes;
  ctx.body = f.sizeBytes === 0 ? '' : files.blobs.read(f.sha256);
}

export function filesRoutes(api: Api, files: FilesService, uploadBytes: number): void {
  api.bind(
    ops.uploadFile,
    async ({ actor, ctx }) => {
      const meta = await files.upload(actor, readUpload(ctx));
      ctx.set('Location', `/api/v1/files/${meta.id}/meta`);
      return meta;
    },
    [multipartUpload(files.blobs.incomingDir, uploadBytes)],
  );
  api.bind(ops.downloadFile, ({ actor, params, ctx }) => {
    sendBlob(ctx, files, files.readable(actor, params.id));
  });
  api.bind(ops.getFileMeta, ({ actor, params }) => files.meta(actor, params.id));
}
