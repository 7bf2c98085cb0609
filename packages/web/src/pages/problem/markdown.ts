import katex from 'katex';
import MarkdownIt from 'markdown-it';
import texmath from 'markdown-it-texmath';
import { sanitizeStatement } from './sanitize';

// raw HTML in a statement is shown as text, never inserted; the output is sanitized besides
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
md.use(texmath, { engine: katex, delimiters: 'dollars', katexOptions: { throwOnError: false, output: 'htmlAndMathml' } });

/** A Markdown statement as safe HTML, with $..$ and $$..$$ typeset by KaTeX. */
export function renderMarkdown(text: string): string {
  return sanitizeStatement(md.render(text));
}
