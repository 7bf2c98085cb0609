import { ApiError } from '@judge/contract';
import type { Readable } from 'node:stream';
import type { Ctx } from './context.js';

/** Where stored bytes are read from (the blob store), whole or one inclusive byte range. */
export interface BlobSource {
  read(sha256: string, range?: { start: number; end: number }): Readable;
}

const RANGE = /^bytes=(\d*)-(\d*)$/;

/** Sends stored bytes with ETag, conditional 304 and single-range 206 (decisions §11). */
export function sendBlob(ctx: Ctx, blobs: BlobSource, f: { sha256: string; sizeBytes: number; name: string; mimeType: string }): void {
  const etag = `"${f.sha256}"`;
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', 'private, max-age=31536000, immutable');
  ctx.set('Accept-Ranges', 'bytes');
  const pdf = f.mimeType === 'application/pdf';
  // a PDF statement is shown inside the web app; anything else is saved, never opened on this origin
  ctx.set('Content-Disposition', `${pdf ? 'inline' : 'attachment'}; filename="${f.name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(f.name)}`);
  // Stored bytes are whatever somebody uploaded: never let a browser run them on this origin. A PDF
  // goes to the browser's own viewer (nosniff holds it to that type), which runs nothing on this
  // origin; a sandbox would leave it an empty frame in Safari. Only this origin's pages may frame it.
  ctx.set('Content-Security-Policy', pdf ? "default-src 'none'; frame-ancestors 'self'" : "default-src 'none'; frame-ancestors 'self'; sandbox");
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
      throw ApiError.of('range.unsatisfiable', `The file has ${f.sizeBytes} bytes`);
    }
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${start}-${end}/${f.sizeBytes}`);
    ctx.length = end - start + 1;
    ctx.body = blobs.read(f.sha256, { start, end });
    return;
  }
  ctx.status = 200;
  ctx.length = f.sizeBytes;
  ctx.body = f.sizeBytes === 0 ? '' : blobs.read(f.sha256);
}
