/**
 * A problemtools LaTeX statement as HTML, converted once when the package is uploaded: its text
 * checked against the converter's limits (latex-limits.ts) before anything recursive reads it,
 * parsed by unified-latex, its own macros expanded within a budget, and written as HTML by the
 * converter's own writer (latex-html.ts), synchronously, so that every failure is an exception
 * here. Math is left as TeX for KaTeX (sanitize.ts). A statement is refused (LatexStatementError,
 * the reason in its message) when its structure cannot be read or it is past a limit; anything the
 * converter does not know is shown as text and named in the warnings, never a failure.
 */
import type { Element, ElementContent, Root } from 'hast';
import type * as Ast from '@unified-latex/unified-latex-types';
import { expandUnicodeLigatures } from '@unified-latex/unified-latex-util-ligatures';
import { getParser } from '@unified-latex/unified-latex-util-parse';
import { visit } from '@unified-latex/unified-latex-util-visit';
import { LatexStatementError } from './latex-error.js';
import { checkTreeDepth, expandOwnMacros } from './latex-expand.js';
import { HtmlWriter } from './latex-html.js';
import { Budget } from './latex-limits.js';
import { ENVIRONMENT_SIGNATURES, MACRO_SIGNATURES } from './latex-macros.js';
import { freezeRawArguments, numberFloats, unescapeCharacters } from './latex-passes.js';
import { statementText } from './latex-source.js';
import { safeHtml } from './sanitize.js';

export { LatexStatementError };

/** A statement to convert and what it may draw on from its directory. */
export interface StatementSource {
  text: string;
  /** Another text file of the statement's directory, for \input and \include; undefined when none. */
  sibling(name: string): string | undefined;
  /** The package path of the image a reference names, when the statement may show it. */
  image(ref: string): string | undefined;
  /** The problem's name (problem.yaml's), which \problemyamlname stands for. */
  name?: string;
}

/** A parsed statement: the images it shows, then its HTML once their URLs are known. */
export interface PreparedStatement {
  images: string[];
  render(urlOf: (path: string) => string | undefined): string;
  /** What the converter showed otherwise than the author wrote it (a macro it does not know, an image it cannot show). */
  warnings?: string[];
}

const parser = getParser({
  macros: Object.fromEntries(Object.entries(MACRO_SIGNATURES).map(([name, signature]) => [name, { signature }])),
  environments: Object.fromEntries(Object.entries(ENVIRONMENT_SIGNATURES).map(([name, signature]) => [name, { signature }])),
});

/** What the parser leaves behind when the source's structure is broken. */
function structuralFault(root: Ast.Root): string | undefined {
  let fault: string | undefined;
  visit(root, (node) => {
    if (fault) return;
    if (node.type === 'macro' && ['begin', 'end'].includes(node.content)) fault = `a \\${node.content} without its match`;
    else if (node.type === 'macro' && ['[', ']', '(', ')'].includes(node.content)) fault = `a \\${node.content} without its match`;
    else if (node.type === 'string' && /^(?:\{|\}|\$+)$/.test(node.content)) fault = `an unmatched ${node.content}`;
  });
  return fault;
}

/** Points images at their URLs (or drops those without one). */
function finish(node: Root | Element, urlOf: (path: string) => string | undefined): void {
  node.children = node.children.flatMap((child): ElementContent[] => {
    if (child.type !== 'element') return [child as ElementContent];
    const path = child.properties['dataStatementImage'];
    if (child.tagName === 'img' && typeof path === 'string') {
      const src = urlOf(path);
      if (!src) return [];
      const { dataStatementImage: _, ...rest } = child.properties;
      return [{ ...child, properties: { ...rest, src } }];
    }
    finish(child, urlOf);
    return [child];
  });
}

function convert(source: StatementSource): { tree: Root; images: string[]; warnings: string[] } {
  const root = parser.parse(statementText(source.text, (name) => source.sibling(name)));
  checkTreeDepth(root);
  const fault = structuralFault(root);
  if (fault) throw new LatexStatementError(`the statement cannot be read: ${fault}`);
  const budget = new Budget();
  expandOwnMacros(root, budget);
  freezeRawArguments(root);
  const floats = numberFloats(root);
  unescapeCharacters(root.content);
  expandUnicodeLigatures(root);
  const writer = new HtmlWriter({ image: (ref) => source.image(ref), name: source.name }, budget, floats);
  const tree = writer.document(root);
  return { tree, images: writer.images, warnings: writer.warningList() };
}

/** A failure of the libraries on a statement, as a refusal with its reason (never a crash of the server). */
function refusal(e: unknown): LatexStatementError {
  if (e instanceof LatexStatementError) return e;
  if (e instanceof RangeError) return new LatexStatementError(`the converter ran out of room on it (${e.message})`);
  const message = e instanceof Error ? e.message : String(e);
  return new LatexStatementError(`the converter failed on it: ${message.length > 200 ? `${message.slice(0, 200)}…` : message}`);
}

/** Parses the statement; refuses (LatexStatementError) one that cannot be read or is past a limit. */
export function prepareLatex(source: StatementSource): PreparedStatement {
  let converted: ReturnType<typeof convert>;
  try {
    converted = convert(source);
  } catch (e) {
    throw refusal(e);
  }
  const { tree, images, warnings } = converted;
  return {
    images,
    warnings,
    render(urlOf) {
      const copy = structuredClone(tree);
      finish(copy, urlOf);
      return safeHtml(copy);
    },
  };
}
