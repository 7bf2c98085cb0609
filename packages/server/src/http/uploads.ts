import type Koa from 'koa';
import { koaBody } from 'koa-body';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { ApiError } from '@judge/contract';
import type { Ctx, RequestState } from './context.js';

/** A file part on disk, not yet stored: files are kept under their hash once the declared sha256 matches. */
export interface IncomingUpload {
  tempPath: string;
  name: string;
  mimeType: string;
  declaredSha256: string;
}

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
    if (!ctx.is('multipart/form-data')) throw ApiError.of('unsupported_media_type', 'Send the upload as multipart/form-data with parts file and sha256');
    const l = limits(ctx as Ctx);
    // refuse at once what cannot fit, before reading a byte of it
    if (ctx.request.length > l.fileBytes * l.files + l.fieldBytes + 64 * 1024) throw ApiError.of('payload_too_large', `Uploads are limited to ${l.fileBytes} bytes`);
    const opened: OpenedPart[] = [];
    try {
      await parser(opened, l)(ctx, next);
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
    for (const f of [file, ...extra]) if (f) void rm(f.filepath, { force: true });
    return e;
  };
  if (!file) throw fail(ApiError.of('file.required', 'The upload has no part named file', { file: ['required'] }));
  if (typeof declared !== 'string' || !SHA256.test(declared)) {
    throw fail(ApiError.of('validation_failed', 'The sha256 part must be 64 hex digits', { sha256: ['must be 64 hex digits'] }));
  }
  for (const f of extra) void rm(f.filepath, { force: true });
  const name = (file.originalFilename ?? 'file').replace(/[\\/\0]/g, '_').slice(0, 255) || 'file';
  return { tempPath: file.filepath, name, mimeType: file.mimetype?.slice(0, 128) || 'application/octet-stream', declaredSha256: declared };
}
