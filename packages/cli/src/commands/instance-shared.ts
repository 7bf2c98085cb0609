import { InstantInput, LanguageTag, type FileMeta } from '@judge/contract';
import { ApiProblem, type JudgeClient } from '@judge/sdk';
import { InvalidArgumentError } from 'commander';
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { CliError } from '../errors.js';
import { upload } from '../upload.js';

/**
 * What the instance commands share: files read from disk and uploaded (the server reads an image's
 * or a font's type from its first bytes; the type sent here is only the upload's label), sizes and
 * the instants and language tags the options take.
 */
const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  woff2: 'font/woff2',
  woff: 'font/woff',
  ttf: 'font/ttf',
  otf: 'font/otf',
  css: 'text/css',
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  html: 'text/html',
  htm: 'text/html',
  pdf: 'application/pdf',
};

/** The bytes of a file named on the command line, or a refusal that names it. */
export async function readLocal(path: string): Promise<Uint8Array> {
  try {
    return await readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (e as Error).message}`);
  }
}

/** Uploads a file from disk under its own name (a document's type is read from its name's ending). */
export async function uploadLocal(client: JudgeClient, path: string): Promise<FileMeta> {
  const bytes = await readLocal(path);
  const name = basename(path);
  return upload(client, name, bytes, TYPES[extname(name).slice(1).toLowerCase()] ?? 'application/octet-stream', name);
}

/** A size for people: 67 B, 12.5 KiB, 1.2 MiB. */
export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** An option's instant (RFC 3339; without an offset, UTC), sent in the server's form. */
export function instant(v: string): string {
  const r = InstantInput.safeParse(v.trim());
  if (!r.success) throw new InvalidArgumentError('not a date and time, e.g. 2026-09-01T00:00:00Z or 2026-09-01T08:00+02:00 (without an offset: UTC).');
  return r.data;
}

/** An option's language tag (de, pt-BR). */
export function language(v: string): string {
  const tag = v.trim();
  if (!LanguageTag.safeParse(tag).success) throw new InvalidArgumentError('not a language tag, e.g. en, de or pt-BR.');
  return tag;
}

/** A request whose refusal (not allowed, not found) only means there is less to show. */
export async function unlessRefused<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof ApiProblem && [401, 403, 404].includes(e.status)) return undefined;
    throw e;
  }
}

