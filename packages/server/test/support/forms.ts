import { createHash } from 'node:crypto';

/**
 * The multipart bodies a participant submits (decisions §9): pasted code or a file, each with the
 * SHA-256 the server checks the bytes against.
 */

/** Lower-case hex SHA-256, as the API names a file's content. */
export const sha256 = (b: string | Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Pasted code: a `code` text part (multipart encoding turns its line breaks into CRLF) and its name. */
export function codeForm(code: string, fileName = 'a.cpp', extra: Record<string, string> = {}): FormData {
  const f = new FormData();
  f.set('code', code);
  f.set('fileName', fileName);
  f.set('sha256', sha256(code));
  for (const [k, v] of Object.entries(extra)) f.set(k, v);
  return f;
}

/** An uploaded file: a file part, whose bytes arrive as they are. */
export function fileForm(content: string | Buffer, name = 'sol.py', extra: Record<string, string> = {}, type?: string): FormData {
  const f = new FormData();
  f.set('file', new Blob([new Uint8Array(Buffer.from(content))], type ? { type } : {}), name);
  f.set('sha256', sha256(content));
  for (const [k, v] of Object.entries(extra)) f.set(k, v);
  return f;
}
