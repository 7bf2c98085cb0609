/**
 * Statements stored as the version keeps them (statements/convert.ts): the package's, with the
 * images they show, and the request's own. Every statement is read and checked first; only then
 * are they stored as files, before the version's transaction like the samples (they may be large).
 */
import { readFile } from 'node:fs/promises';
import type { CreateVersionRequest } from '@judge/contract';
import type { z } from 'zod';
import type { Actor } from '../../auth/permissions.js';
import type { FilesService } from '../files/index.js';
import type { BoundedPool } from '../../offloop/pool.js';
import { readStatement, sourceFormatOf, STATEMENT_MIME, statementFileName, type ReadStatement } from './statements/convert.js';
import { packageStatements, type PackageStatement, type StatementImage } from './statements/from-package.js';
import type { PlannedFile } from './version-files.js';

type VersionInput = z.output<typeof CreateVersionRequest>;

/** The statements of a version, read and checked, not yet stored. */
export interface ReadStatements {
  fromPackage: { statements: PackageStatement[]; images: StatementImage[] };
  /** The request's, with the file each was sent as. */
  sent: (ReadStatement & { language: string | undefined; fileId: string })[];
}

/** The URL a signed-in browser loads a stored file at (the files route checks who may). */
const fileUrl = (fileId: string) => `/api/v1/files/${fileId}`;

/**
 * Reads the package's statements and the request's: Markdown and PDF files as they are (named by
 * their format), LaTeX to convert and HTML to sanitize. A statement sent alone has no directory to
 * draw \input files or images from. Refuses (422 version.statement.latex) before anything is stored.
 */
export async function readStatements(
  pool: BoundedPool,
  files: FilesService,
  actor: Actor,
  packagePath: string | undefined,
  statements: VersionInput['statements'],
): Promise<ReadStatements> {
  const fromPackage = packagePath ? await packageStatements(pool, packagePath) : { statements: [], images: [] };
  const sent: ReadStatements['sent'] = [];
  for (const [i, s] of (statements ?? []).entries()) {
    const row = await files.readable(actor, s.fileId);
    const bytes = await readFile(files.blobs.pathOf(row.sha256));
    const { fresh: _, ...read } = await readStatement(pool, sourceFormatOf(row, bytes), bytes, `statements[${i}].fileId`);
    sent.push({ ...read, language: s.language, fileId: s.fileId });
  }
  return { fromPackage, sent };
}

/** What the converters could not render as written, by statement, for the log. */
export function statementWarnings(read: ReadStatements): { statement: string; warnings: string[] }[] {
  const all = [...read.fromPackage.statements.map((s) => ({ statement: statementFileName(s.language, s.format), warnings: s.warnings })), ...read.sent.map((s) => ({ statement: s.fileId, warnings: s.warnings }))];
  return all.filter((s) => s.warnings.length);
}

/** Stores the statements read: the package's (and their images) and the request's, as the version's files. */
export async function storeStatements(files: FilesService, actor: Actor, read: ReadStatements): Promise<{ packageStatements: PlannedFile[]; statements: PlannedFile[] }> {
  const urls = new Map<string, string>();
  const packageFiles: PlannedFile[] = [];
  for (const image of read.fromPackage.images) {
    const meta = await files.store(actor, { name: image.name.slice(image.name.lastIndexOf('/') + 1), mimeType: image.mimeType, bytes: image.bytes });
    urls.set(image.path, fileUrl(meta.id));
    packageFiles.push({ name: `statement/${image.name}`, scope: 'participant', role: 'statementImage', language: null, fileId: meta.id });
  }
  const made = async (s: ReadStatement & { language: string | undefined }, role: PlannedFile['role'], original?: string): Promise<PlannedFile> => {
    const name = statementFileName(s.language, s.format);
    // Markdown and PDF sent in the request are kept as the very file that was sent
    const fileId = original && s.format !== 'html' ? original : (await files.store(actor, { name, mimeType: STATEMENT_MIME[s.format], bytes: s.bytes((p) => urls.get(p)) })).id;
    return { name, scope: 'participant', role, language: s.language ?? null, fileId };
  };
  for (const s of read.fromPackage.statements) packageFiles.push(await made(s, 'packageStatement'));
  const statements: PlannedFile[] = [];
  for (const s of read.sent) statements.push(await made(s, 'statement', s.fileId));
  return { packageStatements: packageFiles, statements };
}
