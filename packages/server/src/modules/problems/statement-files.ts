/**
 * Statements stored as the version keeps them (statements/convert.ts): the package's, with the
 * images they show, and the request's own. They are stored as files before the version's
 * transaction, like the samples (they may be large, and converting takes a moment).
 */
import { readFile } from 'node:fs/promises';
import type { CreateVersionRequest } from '@judge/contract';
import type { z } from 'zod';
import type { Actor } from '../../auth/permissions.js';
import type { FilesService } from '../files/index.js';
import { convertStatement, sourceFormatOf, STATEMENT_MIME, statementFileName } from './statements/convert.js';
import { packageStatements } from './statements/from-package.js';
import type { PlannedFile } from './version-files.js';

type VersionInput = z.output<typeof CreateVersionRequest>;

/** The URL a signed-in browser loads a stored file at (the files route checks who may). */
const fileUrl = (fileId: string) => `/api/v1/files/${fileId}`;

/** The package's statements and their images, as participant files of the version. */
export async function storePackageStatements(files: FilesService, actor: Actor, packagePath: string): Promise<PlannedFile[]> {
  const images: PlannedFile[] = [];
  const statements = await packageStatements(packagePath, async (image) => {
    const meta = await files.store(actor, { name: image.name.slice(image.name.lastIndexOf('/') + 1), mimeType: image.mimeType, bytes: image.bytes });
    images.push({ name: `statement/${image.name}`, scope: 'participant', role: 'statementImage', language: null, fileId: meta.id });
    return fileUrl(meta.id);
  });
  const out: PlannedFile[] = [];
  for (const s of statements) {
    const name = statementFileName(s.language, s.format);
    const meta = await files.store(actor, { name, mimeType: STATEMENT_MIME[s.format], bytes: s.bytes });
    out.push({ name, scope: 'participant', role: 'packageStatement', language: s.language ?? null, fileId: meta.id });
  }
  return [...out, ...images];
}

/**
 * The request's statements: Markdown and PDF files as they are (named by their format), LaTeX
 * converted and HTML sanitized into new files. A statement sent alone has no directory to draw
 * \input files or images from.
 */
export async function storeRequestStatements(files: FilesService, actor: Actor, statements: VersionInput['statements']): Promise<PlannedFile[]> {
  const out: PlannedFile[] = [];
  for (const [i, s] of (statements ?? []).entries()) {
    const row = files.readable(actor, s.fileId);
    const bytes = await readFile(files.blobs.pathOf(row.sha256));
    const source = sourceFormatOf(row, bytes);
    const converted = await convertStatement(
      source,
      bytes,
      { sibling: () => undefined, image: () => undefined, imageUrl: async () => undefined },
      `statements[${i}].fileId`,
    );
    const name = statementFileName(s.language, converted.format);
    const fileId =
      converted.bytes === bytes ? s.fileId : (await files.store(actor, { name, mimeType: STATEMENT_MIME[converted.format], bytes: converted.bytes })).id;
    out.push({ name, scope: 'participant', role: 'statement', language: s.language ?? null, fileId });
  }
  return out;
}
