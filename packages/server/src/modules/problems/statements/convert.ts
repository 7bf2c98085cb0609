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

/** Where a statement draws on: other files of its directory, and a URL for each image it shows. */
export interface Surroundings extends Pick<StatementSource, 'sibling' | 'image'> {
  imageUrl(path: string): Promise<string | undefined>;
}

async function render(prepared: PreparedStatement, around: Surroundings): Promise<Buffer> {
  const urls = new Map<string, string>();
  for (const path of prepared.images) {
    const url = await around.imageUrl(path);
    if (url) urls.set(path, url);
  }
  return Buffer.from(prepared.render((path) => urls.get(path)), 'utf8');
}

/** The statement as stored; LaTeX that cannot be read is refused (422 version.statement.latex, naming `where`). */
export async function convertStatement(source: SourceFormat, bytes: Buffer, around: Surroundings, where: string): Promise<{ format: StatementFormat; bytes: Buffer }> {
  if (source === 'pdf') return { format: 'pdf', bytes };
  if (source === 'md') return { format: 'markdown', bytes };
  const text = bytes.toString('utf8');
  if (source === 'html') return { format: 'html', bytes: await render(prepareHtml({ text, image: around.image }), around) };
  try {
    return { format: 'html', bytes: await render(prepareLatex({ text, sibling: around.sibling, image: around.image }), around) };
  } catch (e) {
    if (e instanceof LatexStatementError) throw latexRefused(where, e.message);
    throw e;
  }
}
