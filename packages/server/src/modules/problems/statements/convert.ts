/**
 * A statement as the version keeps it: Markdown and PDF as they come, LaTeX converted to HTML,
 * HTML sanitized. The stored name says the format (`statement[.<lang>].md|.html|.pdf`), so that a
 * client knows how to show it; a LaTeX statement whose structure cannot be read is refused.
 */
import { randomBytes } from 'node:crypto';
import { ApiError } from '@judge/contract';
import { failureText, OffloopFailure } from '../../../offloop/failure.js';
import { defineJob, type BoundedPool } from '../../../offloop/pool.js';
import { imagePlaceholder, type ConvertInput } from './convert-job.js';

/**
 * A conversion off the event loop. Real statements convert in well under a second; the time and
 * memory are there for the hostile ones (a macro fan-out, thousands of nested environments).
 */
export const CONVERT = defineJob<typeof import('./convert-job.js').default>({
  name: 'statement',
  module: new URL('./convert-job.js', import.meta.url),
  timeoutMs: 20_000,
  memoryMb: 256,
});

/** How a stored statement is shown. */
export type StatementFormat = 'markdown' | 'html' | 'pdf';
/** What a statement was written in. */
export type SourceFormat = 'md' | 'tex' | 'html' | 'pdf';

const EXTENSION: Record<StatementFormat, string> = { markdown: 'md', html: 'html', pdf: 'pdf' };
export const STATEMENT_MIME: Record<StatementFormat, string> = { markdown: 'text/markdown', html: 'text/html', pdf: 'application/pdf' };

/** Names the statements of a version take; explicit files may not use them. */
export const STATEMENT_NAME = /^statement(\.[^.]+)?\.(md|html|pdf)$/i;

export const statementFileName = (language: string | null | undefined, format: StatementFormat): string =>
  `statement${language ? `.${language}` : ''}.${EXTENSION[format]}`;

/** The format a stored statement's name says; names from before formats were told are Markdown. */
export function formatOfName(name: string): StatementFormat {
  const ext = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
  return ext === 'pdf' ? 'pdf' : ext === 'html' ? 'html' : 'markdown';
}

/** What an uploaded statement file was written in, by its bytes, type and name. */
export function sourceFormatOf(f: { name: string; mimeType: string }, head: Buffer): SourceFormat {
  const name = f.name.toLowerCase();
  const mime = f.mimeType.toLowerCase();
  if (head.subarray(0, 5).toString('latin1') === '%PDF-' || mime === 'application/pdf' || name.endsWith('.pdf')) return 'pdf';
  if (/^(?:application|text)\/x-(?:la)?tex$/.test(mime) || name.endsWith('.tex')) return 'tex';
  if (mime === 'text/html' || name.endsWith('.html') || name.endsWith('.htm')) return 'html';
  return 'md';
}

export const latexRefused = (where: string, reason: string, what = 'LaTeX'): ApiError =>
  ApiError.of('version.statement.latex', `The ${what} statement ${where} cannot be converted: ${reason}`, { [where]: [reason] });

/** A statement read and checked, to be stored once every statement of the version passed. */
export interface ReadStatement {
  format: StatementFormat;
  /** The package paths of the images it shows. */
  images: string[];
  /** Its stored bytes, given the URL of each image it shows. */
  bytes(urlOf: (path: string) => string | undefined): Buffer;
  /** What the converter could not render as written (shown as text instead). */
  warnings: string[];
}

/** What a statement of a package may draw on: the files beside it, and the version's image budget. */
export type StatementContext = Omit<ConvertInput, 'source' | 'text' | 'nonce'>;
const ALONE: StatementContext = { dir: '', siblings: new Map(), imageSizes: new Map(), included: [], imageBytesLeft: 0 };

const kept = (format: StatementFormat, bytes: Buffer): ReadStatement & { fresh: string[] } => ({ format, images: [], bytes: () => bytes, warnings: [], fresh: [] });

/**
 * Reads a statement: Markdown and PDF as they are, LaTeX converted and HTML sanitized on the
 * bounded pool. Any failure there (a statement that cannot be read, or past its time or memory)
 * is refused here (422 version.statement.latex, naming `where`), before anything is stored.
 * `fresh` are the images it shows that no earlier statement of the version did.
 */
export async function readStatement(
  pool: BoundedPool,
  source: SourceFormat,
  bytes: Buffer,
  where: string,
  context: StatementContext = ALONE,
): Promise<ReadStatement & { fresh: string[] }> {
  if (source === 'pdf') return kept('pdf', bytes);
  if (source === 'md') return kept('markdown', bytes);
  const nonce = randomBytes(12).toString('hex');
  const what = source === 'tex' ? 'LaTeX' : 'HTML';
  const out = await pool.run(CONVERT, { source, text: bytes.toString('utf8'), nonce, ...context }).catch((e: unknown) => {
    throw e instanceof OffloopFailure ? latexRefused(where, failureText(e), what) : e;
  });
  return {
    format: 'html',
    images: out.shown,
    fresh: out.fresh,
    warnings: out.warnings,
    bytes: (urlOf) => Buffer.from(out.shown.reduce((html, p, i) => html.split(imagePlaceholder(nonce, i)).join(urlOf(p) ?? ''), out.html), 'utf8'),
  };
}
