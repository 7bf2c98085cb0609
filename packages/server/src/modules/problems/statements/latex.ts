/**
 * A problemtools LaTeX statement as HTML, converted once when the package is uploaded. unified-latex
 * parses it and maps LaTeX's structure to HTML; the problemtools macros (\problemname,
 * \illustration, \sampletable...) are mapped here; the macros the statement defines itself are
 * expanded; math is left as TeX for KaTeX (sanitize.ts). A macro nobody knows keeps its arguments'
 * text: a statement is refused only when its structure cannot be read (an environment, a brace or
 * a math delimiter left open).
 */
import type { Element, ElementContent, Root } from 'hast';
import type * as Ast from '@unified-latex/unified-latex-types';
import { getParser } from '@unified-latex/unified-latex-util-parse';
import { unifiedLatexToHast, type PluginOptions } from '@unified-latex/unified-latex-to-hast';
import { htmlLike } from '@unified-latex/unified-latex-util-html-like';
import { attachMacroArgs, getArgsContent } from '@unified-latex/unified-latex-util-arguments';
import { expandMacrosExcludingDefinitions, listNewcommands } from '@unified-latex/unified-latex-util-macros';
import { visit } from '@unified-latex/unified-latex-util-visit';
import { toString as latexText } from '@unified-latex/unified-latex-util-to-string';
import { unified } from 'unified';
import { DISPLAY_MATH, INLINE_MATH, safeHtml } from './sanitize.js';

/** A statement whose structure cannot be read. */
export class LatexStatementError extends Error {}

/** A statement to convert and what it may draw on from its directory. */
export interface StatementSource {
  text: string;
  /** Another text file of the statement's directory, for \input and \include; undefined when none. */
  sibling(name: string): string | undefined;
  /** The package path of the image a reference names, when the statement may show it. */
  image(ref: string): string | undefined;
}

/** A parsed statement: the images it shows, then its HTML once their URLs are known. */
export interface PreparedStatement {
  images: string[];
  render(urlOf: (path: string) => string | undefined): string;
}

/** Argument signatures of the problemtools macros, so that their arguments are theirs and not text. */
const PROBLEMTOOLS = {
  problemname: { signature: 'o m' },
  illustration: { signature: 'm m m' },
  sampletable: { signature: 'm m m m' },
  sampletableinteractive: { signature: 'm m m m' },
  nextsample: { signature: '' },
  remainingsamples: { signature: '' },
};
/** The macros that draw the sample tables: the app shows the samples itself. */
const DROPPED = ['sampletable', 'sampletableinteractive', 'nextsample', 'remainingsamples', 'centering', 'noindent', 'newpage', 'clearpage', 'label'];
/** Definitions, once expanded where used. */
const DEFINITIONS = ['newcommand', 'renewcommand', 'providecommand'];
const MAX_INPUT_DEPTH = 4;
const MAX_TEXT = 2 * 1024 * 1024;
const MACRO_PASSES = 4;

/** \input{file} and \include{file} of the same directory, inlined; anything else is left out. */
function inlineInputs(text: string, sibling: StatementSource['sibling'], depth = 0): string {
  return text.replace(/\\(?:input|include)\s*\{([^{}]*)\}/g, (_, raw: string) => {
    const name = raw.trim();
    if (depth >= MAX_INPUT_DEPTH || !/^[\w.-]+$/.test(name) || name.startsWith('.')) return '';
    const found = sibling(name) ?? (name.endsWith('.tex') ? undefined : sibling(`${name}.tex`));
    if (found === undefined) return '';
    return inlineInputs(found, sibling, depth + 1);
  });
}

const argsOf = (m: Ast.Macro): Ast.Node[][] => getArgsContent(m).map((a) => a ?? []);
const lastArg = (m: Ast.Macro): Ast.Node[] => argsOf(m).at(-1) ?? [];
const text = (nodes: Ast.Node[]): string => latexText(nodes).trim();

/** The words of converted nodes (an image's alt text): markup and its attributes left out. */
function words(nodes: Ast.Node[]): string {
  const of = (n: Ast.Node): string => {
    if (n.type === 'string') return n.content;
    if (n.type === 'whitespace' || n.type === 'parbreak') return ' ';
    if (n.type === 'group' || n.type === 'inlinemath') return n.content.map(of).join('');
    if (n.type === 'macro' && !n.content.startsWith('html-attr')) return (n.args ?? []).flatMap((a) => a.content).map(of).join('');
    return '';
  };
  return nodes.map(of).join('').replace(/\s+/g, ' ').trim();
}

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

/** Expands the \newcommand definitions of the statement (including ones that use others) and drops them. */
function expandOwnMacros(root: Ast.Root): void {
  for (let pass = 0; pass < MACRO_PASSES; pass++) {
    const defined = listNewcommands(root);
    if (!defined.length) return;
    attachMacroArgs(root, Object.fromEntries(defined.map((m) => [m.name, { signature: m.signature }])));
    expandMacrosExcludingDefinitions(root, defined);
  }
}

/** Escaped characters of the text (`50\\% of`): as plain characters, or the converter drops the space after them. */
const ESCAPED = new Set(['%', '$', '&', '#', '_', '{', '}']);

function unescapeText(root: Ast.Root): void {
  visit(root, (node, info) => {
    if (node.type === 'macro' && ESCAPED.has(node.content) && !info.context.inMathMode) {
      const plain = node as unknown as Ast.String;
      plain.type = 'string';
      delete (node as Partial<Ast.Macro>).args;
    }
  });
}

/** Helpers the macro replacements share: image references seen, footnotes collected. */
class Mapping {
  readonly images: string[] = [];
  readonly footnotes: Ast.Node[][] = [];
  constructor(private readonly source: StatementSource) {}

  image(ref: string, attributes: Record<string, string> = {}): Ast.Node {
    const path = this.source.image(ref);
    if (!path) return { type: 'string', content: '' };
    if (!this.images.includes(path)) this.images.push(path);
    return htmlLike({ tag: 'img', attributes: { ...attributes, 'data-statement-image': path, alt: attributes['alt'] ?? '' } });
  }

  macros(): Record<string, (m: Ast.Macro) => Ast.Node> {
    const heading = (tag: string) => (m: Ast.Macro) => htmlLike({ tag, content: lastArg(m) });
    const dropped = Object.fromEntries([...DROPPED, ...DEFINITIONS].map((name) => [name, (): Ast.Node => ({ type: 'string', content: '' })]));
    return {
      ...dropped,
      problemname: (m) => htmlLike({ tag: 'h1', content: lastArg(m) }),
      section: heading('h2'),
      subsection: heading('h3'),
      subsubsection: heading('h4'),
      includegraphics: (m) => this.image(text(lastArg(m))),
      illustration: (m) => {
        const [, file = [], caption = []] = argsOf(m);
        return htmlLike({
          tag: 'figure',
          attributes: { className: 'illustration' },
          content: [this.image(text(file), { alt: words(caption) }), htmlLike({ tag: 'figcaption', content: caption })],
        });
      },
      caption: (m) => htmlLike({ tag: 'figcaption', content: lastArg(m) }),
      footnote: (m) => {
        this.footnotes.push(lastArg(m));
        const n = this.footnotes.length;
        return htmlLike({ tag: 'sup', attributes: { className: 'footnote-ref' }, content: { type: 'string', content: `[${n}]` } });
      },
    };
  }

  environments(): Record<string, (e: Ast.Environment) => Ast.Macro> {
    return {
      figure: (e) => htmlLike({ tag: 'figure', content: e.content }),
      lstlisting: (e) => htmlLike({ tag: 'pre', attributes: { className: 'verbatim' }, content: { type: 'string', content: latexText(e.content).replace(/^\n/, '') } }),
      description: (e) =>
        htmlLike({
          tag: 'dl',
          content: e.content
            .filter((n): n is Ast.Macro => n.type === 'macro' && n.content === 'item')
            .flatMap((item) => {
              const args = argsOf(item);
              return [htmlLike({ tag: 'dt', content: args[1] ?? [] }), htmlLike({ tag: 'dd', content: args.at(-1) ?? [] })];
            }),
        }),
    };
  }

  /** The footnotes as a closing list, when the statement has any. */
  footnoteList(): Ast.Node[] {
    if (!this.footnotes.length) return [];
    const items = this.footnotes.map((content) => htmlLike({ tag: 'li', content }));
    return [htmlLike({ tag: 'ol', attributes: { className: 'footnotes' }, content: items })];
  }
}

const hasClass = (e: Element, name: string): boolean => {
  const c = e.properties['className'];
  return Array.isArray(c) && c.includes(name);
};

/** Marks math for KaTeX and points images at their URLs (or drops those without one). */
function finish(node: Root | Element, urlOf: (path: string) => string | undefined): void {
  node.children = node.children.flatMap((child): ElementContent[] => {
    if (child.type !== 'element') return [child as ElementContent];
    // a rule of a tabular (\hline) comes out as a row without cells
    if (child.tagName === 'tr' && !child.children.some((c) => c.type === 'element')) return [];
    if (hasClass(child, 'inline-math')) return [{ ...child, tagName: 'span', properties: { className: [INLINE_MATH] } }];
    if (hasClass(child, 'display-math')) return [{ ...child, tagName: 'div', properties: { className: [DISPLAY_MATH] } }];
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

function toHast(root: Ast.Root, options: PluginOptions): Root {
  return unified().use(unifiedLatexToHast, options).runSync(root) as unknown as Root;
}

/** Parses the statement; refuses (LatexStatementError) one whose structure cannot be read. */
export function prepareLatex(source: StatementSource): PreparedStatement {
  const full = inlineInputs(source.text, (name) => source.sibling(name));
  if (full.length > MAX_TEXT) throw new LatexStatementError(`the statement is longer than ${MAX_TEXT} characters`);
  const root = getParser({ macros: PROBLEMTOOLS }).parse(full);
  const fault = structuralFault(root);
  if (fault) throw new LatexStatementError(`the statement cannot be read: ${fault}`);
  expandOwnMacros(root);
  unescapeText(root);
  const mapping = new Mapping(source);
  const options = { macroReplacements: mapping.macros(), environmentReplacements: mapping.environments() };
  const tree = toHast(root, options);
  // the footnotes are known once the body is converted
  if (mapping.footnotes.length) tree.children.push(...toHast({ type: 'root', content: mapping.footnoteList() }, options).children);
  return {
    images: mapping.images,
    render(urlOf) {
      const copy = structuredClone(tree);
      finish(copy, urlOf);
      return safeHtml(copy);
    },
  };
}
