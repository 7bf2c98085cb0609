import type Koa from 'koa';
import { koaBody } from 'koa-body';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { ApiError, type FilePart } from '@judge/contract';
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

/** A file formidable is writing; `_writeStream` is its (internal) fs stream, absent before it opens. */
interface OpenedPart {
  filepath: string;
  _writeStream?: Writable;
}

/** Removes what an upload wrote and nobody kept, after formidable's stream has let go of each file. */
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

/** The parts lists of requests already answered. */
const finished = new WeakSet<OpenedPart[]>();

/** The file parts of each request in the order they began, which is the form's (formidable lists them as they finish). */
const partOrder = new WeakMap<object, OpenedPart[]>();

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
        onFileBegin: (_name, file) => {
          const part = file as unknown as OpenedPart;
          opened.push(part);
          // formidable may still begin parts of a form it already refused (too many files): once
          // the request is answered, such a part is removed as soon as its file is opened
          if (finished.has(opened)) setImmediate(() => void discardParts([part]));
        },
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
    partOrder.set(ctx, opened);
    try {
      await parser(opened, l)(ctx, () => {
        // formidable takes a part whose last write failed (a full disk) for complete: its stream knows
        const failed = opened.find((f) => f._writeStream?.errored)?._writeStream?.errored;
        if (failed) throw failed;
        return next();
      });
    } finally {
      // nothing of a refused upload stays on disk, nor any part the handler did not keep, and it is
      // gone before the answer (a stored part was moved under its hash: its temporary path is free)
      finished.add(opened);
      await discardParts(opened);
    }
  };
}

/**
 * The parts of a parsed multipart form, as its operation's `form` schema validates them: text parts
 * by name (the last of repeated ones) and every file part, with its file name made safe for a path.
 */
export function formParts(ctx: Ctx): Record<string, unknown> & { files: FilePart[] } {
  const req = ctx.request as unknown as { files?: Record<string, FormidableFile | FormidableFile[]>; body?: Record<string, unknown> };
  const text: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.body ?? {})) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof last === 'string') text[name] = last;
  }
  const began = partOrder.get(ctx)?.map((f) => f.filepath) ?? [];
  const inFormOrder = (parts: FormidableFile[]) => [...parts].sort((a, b) => began.indexOf(a.filepath) - began.indexOf(b.filepath));
  const files = Object.entries(req.files ?? {}).flatMap(([field, parts]) =>
    inFormOrder(Array.isArray(parts) ? parts : [parts]).map((f) => ({
      field,
      fileName: (f.originalFilename ?? '').replace(/[\\/\0]/g, '_').slice(0, 255),
      tempPath: f.filepath,
      mimeType: f.mimetype?.slice(0, 128) || 'application/octet-stream',
    })),
  );
  return { ...text, files };
}

/** The upload a validated file-upload form describes, for the files service to check and store. */
export function uploadOf(form: { file: FilePart; sha256: string }): IncomingUpload {
  return { tempPath: form.file.tempPath, name: form.file.fileName || 'file', mimeType: form.file.mimeType, declaredSha256: form.sha256 };
}
