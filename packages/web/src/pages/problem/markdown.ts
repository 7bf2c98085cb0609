import katex from 'katex';
import MarkdownIt from 'markdown-it';
import texmath from 'markdown-it-texmath';
import { sanitizeStatement } from './sanitize';

// raw HTML in a statement is shown as text, never inserted; the output is sanitized besides
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
md.use(texmath, { engine: katex, delimiters: 'dollars', katexOptions: { throwOnError: false, output: 'htmlAndMathml' } });

// the page's own headings come first: a statement's "# Title" is a section of the page, not its title
const DEMOTE: Record<string, string> = { h1: 'h2', h2: 'h3', h3: 'h4', h4: 'h5', h5: 'h6' };
md.core.ruler.push('demote_headings', (state) => {
  for (const token of state.tokens) {
    if ((token.type === 'heading_open' || token.type === 'heading_close') && DEMOTE[token.tag]) token.tag = DEMOTE[token.tag]!;
  }
});

/** A Markdown statement as safe HTML, with $..$ and $$..$$ typeset by KaTeX. */
export function renderMarkdown(text: string): string {
  return sanitizeStatement(md.render(text));
}
