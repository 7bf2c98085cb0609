/**
 * A LaTeX statement's text as the parser gets it: its \input files inlined (within the size limit
 * while they are inlined, so that a file included a thousand times is refused before it is built)
 * and the URLs of \url and \href protected, then checked for nesting.
 */
import { LatexStatementError } from './latex-error.js';
import { checkNesting, LIMITS } from './latex-limits.js';

const MAX_INPUT_DEPTH = 4;
/** A comment to the end of its line, or an \input/\include of a file. */
const INPUT = /(?<!\\)%[^\n]*|\\(?:input|include)\s*\{([^{}]*)\}/g;

const tooLong = (): LatexStatementError => new LatexStatementError(`it is longer than ${LIMITS.text / 1024} KiB with its \\input files`);

/** \input{file} and \include{file} of the same directory, inlined; anything else is left out. */
function inlineInputs(text: string, sibling: (name: string) => string | undefined): string {
  let size = text.length;
  const inline = (body: string, depth: number): string =>
    body.replace(INPUT, (match: string, raw: string | undefined) => {
      if (raw === undefined) return match; // a comment: an \input in it stays commented out
      const name = raw.trim();
      if (depth >= MAX_INPUT_DEPTH || !/^[\w.-]+$/.test(name) || name.startsWith('.')) return '';
      const found = sibling(name) ?? (name.endsWith('.tex') ? undefined : sibling(`${name}.tex`));
      if (found === undefined) return '';
      // every inclusion adds at most its file's length: counted before the file is expanded
      size += found.length;
      if (size > LIMITS.text) throw tooLong();
      return inline(found, depth + 1);
    });
  return inline(text, 0);
}

/** The argument of \url{...}, or the first of \href{...}{...}: the parser would read a `%` in it as a comment. */
const URL_ARGUMENT = /(\\(?:url|href)\s*\{)([^{}\n]*)\}/g;

function protectUrls(text: string): string {
  return text.replace(URL_ARGUMENT, (_, head: string, url: string) => `${head}${url.replace(/(?<!\\)([%#])/g, '\\$1')}}`);
}

/** The statement's full text, ready to parse; refused when too long or nested too deeply. */
export function statementText(text: string, sibling: (name: string) => string | undefined): string {
  if (text.length > LIMITS.text) throw tooLong();
  const full = protectUrls(inlineInputs(text, sibling));
  checkNesting(full);
  return full;
}
