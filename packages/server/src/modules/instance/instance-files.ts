import { ApiError } from '@judge/contract';
import { eq } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import type { Actor } from '../../auth/permissions.js';
import { files } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Deps } from '../../services.js';

export type FileRow = typeof files.$inferSelect;

/** Where the bytes of stored files are read (the files module's blob store). */
export interface Bytes {
  read(sha256: string, range?: { start: number; end: number }): Readable;
}

/**
 * The file a caller names for the instance to show, or 422 file.missing naming `field`: their own
 * upload, any file for an administrator, or one the instance shows already (`shown`), so that one
 * administrator can keep what another chose.
 */
export async function usableFile(d: Deps, q: Q, actor: Actor, fileId: string, field: string, shown: ReadonlySet<string> = new Set()): Promise<FileRow> {
  const [f] = await q.select().from(files).where(eq(files.id, fileId)).limit(1);
  if (f && (f.uploadedBy === actor.userId || shown.has(f.id) || (await d.permissions.isAdministrator(actor.userId, q)))) return f;
  throw ApiError.of('file.missing', 'The file does not exist, or it is not yours to use', { [field]: ['no such file, or not yours to use'] });
}

/** Up to `n` first bytes of a stored file. */
export async function headOf(bytes: Bytes, f: FileRow, n: number): Promise<Buffer> {
  if (f.sizeBytes === 0) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const c of bytes.read(f.sha256, { start: 0, end: Math.min(n, f.sizeBytes) - 1 })) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const starts = (b: Buffer, ...sig: number[]) => sig.every((v, i) => b[i] === v);
const ascii = (b: Buffer, at: number, text: string) => b.subarray(at, at + text.length).toString('latin1') === text;

/** A font's type from its first bytes (the uploader's declared type is not trusted). */
export function fontType(b: Buffer): string | undefined {
  if (ascii(b, 0, 'wOF2')) return 'font/woff2';
  if (ascii(b, 0, 'wOFF')) return 'font/woff';
  if (ascii(b, 0, 'OTTO')) return 'font/otf';
  if (starts(b, 0x00, 0x01, 0x00, 0x00) || ascii(b, 0, 'true')) return 'font/ttf';
  return undefined;
}

/** An image's type from its first bytes; SVG by its opening element. */
export function imageType(b: Buffer): string | undefined {
  if (starts(b, 0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(b, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (ascii(b, 0, 'GIF8')) return 'image/gif';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return 'image/webp';
  const text = b.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(text)) return 'image/svg+xml';
  return undefined;
}

/** A document's type: PDF by its first bytes, else by the file's name (Markdown, text, HTML). */
export function documentType(name: string, b: Buffer): string | undefined {
  if (ascii(b, 0, '%PDF-')) return 'application/pdf';
  const ext = /\.([a-z]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (ext === 'md' || ext === 'markdown') return 'text/markdown; charset=utf-8';
  if (ext === 'txt') return 'text/plain; charset=utf-8';
  if (ext === 'html' || ext === 'htm') return 'text/html; charset=utf-8';
  return undefined;
}

/** Whether the bytes are UTF-8 text (a stylesheet), by a strict decode. */
export function isUtf8Text(b: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return !b.includes(0);
  } catch {
    return false;
  }
}
