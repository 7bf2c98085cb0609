/**
 * A statement as the version keeps it: Markdown and PDF as they come, LaTeX converted to HTML,
 * HTML sanitized. The stored name says the format (`statement[.<lang>].md|.html|.pdf`), so that a
 * client knows how to show it; a LaTeX statement whose structure cannot be read is refused.
 */
import { ApiError } from '@judge/contract';
import { prepareHtml } from './html.js';
import { LatexStatementError, prepareLatex, type PreparedStatement, type StatementSource } from './latex.js';

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

export const latexRefused = (where: string, reason: string): ApiError =>
  ApiError.of('version.statement.latex', `The LaTeX statement ${where} cannot be converted: ${reason}`, { [where]: [reason] });

/** A statement read and checked, to be stored once every statement of the version passed. */
export interface ReadStatement {
  format: StatementFormat;
  /** The package paths of the images it shows. */
  images: string[];
  /** Its stored bytes, given the URL of each image (an image without one is left out). */
  bytes(urlOf: (path: string) => string | undefined): Buffer;
}

const kept = (format: StatementFormat, bytes: Buffer): ReadStatement => ({ format, images: [], bytes: () => bytes });
const rendered = (prepared: PreparedStatement): ReadStatement => ({
  format: 'html',
  images: prepared.images,
  bytes: (urlOf) => Buffer.from(prepared.render(urlOf), 'utf8'),
});

/**
 * Reads a statement: Markdown and PDF as they are, LaTeX and HTML parsed for conversion. LaTeX that
 * cannot be read is refused here (422 version.statement.latex, naming `where`), before anything is stored.
 */
export function readStatement(source: SourceFormat, bytes: Buffer, around: Pick<StatementSource, 'sibling' | 'image'>, where: string): ReadStatement {
  if (source === 'pdf') return kept('pdf', bytes);
  if (source === 'md') return kept('markdown', bytes);
  const text = bytes.toString('utf8');
  if (source === 'html') return rendered(prepareHtml({ text, image: around.image }));
  try {
    return rendered(prepareLatex({ text, sibling: around.sibling, image: around.image }));
  } catch (e) {
    if (e instanceof LatexStatementError) throw latexRefused(where, e.message);
    throw e;
  }
}
