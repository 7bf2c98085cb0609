/**
 * The parsed statement written as HTML (a hast tree): paragraphs, the text macros, headings, links,
 * footnotes, images, math for KaTeX; environments in latex-environments.ts. Every LaTeX node has a
 * rendering: a macro the converter does not know is shown as its name followed by its arguments'
 * text, with a warning, so that nothing an author wrote disappears silently and nothing stops the
 * conversion. Every step is synchronous and recurses once per level of the (depth-checked) tree.
 */
import type { ElementContent, Root } from 'hast';
import type * as Ast from '@unified-latex/unified-latex-types';
import { printRaw } from '@unified-latex/unified-latex-util-print-raw';
import { environment, mathEnvironment } from './latex-environments.js';
import { DEFINING } from './latex-expand.js';
import type { Budget } from './latex-limits.js';
import { ACCENTS, ASSIGNED, DROPPED, HEADINGS, PLAIN, STYLES, SWITCHES, SYMBOLS } from './latex-macros.js';
import { rawText, type FloatNumbers } from './latex-passes.js';
import { append, argsOf, el, isBlock, lastArg, text, textOf, type Writer } from './latex-writer.js';
import { DISPLAY_MATH, INLINE_MATH } from './sanitize.js';

/** What the writer may draw on from the package. */
export interface WriterContext {
  /** The package path of the image a reference names, when the statement may show it. */
  image(ref: string): string | undefined;
  /** The problem's name, for \problemyamlname. */
  name?: string | undefined;
}

const MAX_WARNINGS = 20;

/** A TeX parameter's value after `\looseness` and its kind (`=-1`, `1.2pt`). */
const ASSIGNED_VALUE = /^(?:[=+\-\d.]+|pt|em|ex|cm|mm|in|bp|sp|pc)$/;

/** Leading and trailing white space of a run of inline content, left out. */
function trimmed(run: ElementContent[]): ElementContent[] {
  let start = 0;
  let end = run.length;
  const blankText = (n: ElementContent | undefined) => n?.type === 'text' && !n.value.trim();
  while (start < end && blankText(run[start])) start++;
  while (end > start && blankText(run[end - 1])) end--;
  const out = run.slice(start, end);
  const first = out[0];
  if (first?.type === 'text') out[0] = text(first.value.trimStart());
  const last = out.at(-1);
  if (last?.type === 'text') out[out.length - 1] = text(last.value.trimEnd());
  return out;
}

export class HtmlWriter implements Writer {
  readonly images: string[] = [];
  private readonly footnotes: ElementContent[][] = [];
  private readonly warnings = new Map<string, string>();
  private warningsLeftOut = 0;

  constructor(
    private readonly context: WriterContext,
    private readonly budget: Budget,
    private readonly floats: FloatNumbers,
  ) {}

  /** The whole statement, its footnotes closing it. */
  document(root: Ast.Root): Root {
    const children = this.blocks(root.content);
    if (this.footnotes.length) children.push(el('ol', this.footnotes.map((f) => el('li', f)), { className: ['footnotes'] }));
    return { type: 'root', children };
  }

  /** What was shown otherwise than written, one line each. */
  warningList(): string[] {
    const list = [...this.warnings.values()];
    if (this.warningsLeftOut) list.push(`and ${this.warningsLeftOut} more`);
    return list;
  }

  warn(key: string, message: string): void {
    if (this.warnings.has(key)) return;
    if (this.warnings.size >= MAX_WARNINGS) this.warningsLeftOut++;
    else this.warnings.set(key, message);
  }

  captionNumber(caption: Ast.Macro): string | undefined {
    return this.floats.captions.get(caption);
  }

  math(tex: string, display: boolean): ElementContent[] {
    // KaTeX has no \label; the number it would give is not shown either
    const clean = tex.replace(/\\label\s*\{[^{}]*\}/g, '').trim();
    if (!clean) return [];
    this.budget.formula(clean);
    return [el(display ? 'div' : 'span', [text(clean)], { className: [display ? DISPLAY_MATH : INLINE_MATH] })];
  }

  blocks(nodes: Ast.Node[], paragraphs = nodes.some((n) => n.type === 'parbreak')): ElementContent[] {
    const out: ElementContent[] = [];
    let run: ElementContent[] = [];
    const flush = (): void => {
      const content = trimmed(run);
      run = [];
      if (!content.length) return;
      if (paragraphs) out.push(el('p', content));
      else append(out, content);
    };
    this.each(nodes, (n) => {
      if (n.type === 'parbreak' || (n.type === 'macro' && n.content === 'par')) return flush();
      // a font declaration among blocks styles nothing the HTML could carry
      if (n.type === 'macro' && Object.hasOwn(SWITCHES, n.content)) return;
      for (const h of this.node(n)) {
        if (isBlock(h)) {
          flush();
          out.push(h);
        } else run.push(h);
      }
    });
    flush();
    return out;
  }

  inline(nodes: Ast.Node[]): ElementContent[] {
    // a font declaration styles the rest of its group; one of a style already open adds nothing
    const cuts: { at: number; style: { tag: string; className?: string } | null }[] = [];
    const open = new Set<string>();
    nodes.forEach((n, at) => {
      if (n.type !== 'macro' || !Object.hasOwn(SWITCHES, n.content)) return;
      const style = SWITCHES[n.content] ?? null;
      const key = style && `${style.tag}.${style.className ?? ''}`;
      cuts.push({ at, style: key && !open.has(key) ? style : null });
      if (key) open.add(key);
    });
    const plain = (part: Ast.Node[]): ElementContent[] => {
      const out: ElementContent[] = [];
      this.each(part, (n) => append(out, n.type === 'parbreak' ? [text(' ')] : this.node(n)));
      return out;
    };
    if (!cuts.length) return plain(nodes);
    let inner: ElementContent[] = [];
    for (let k = cuts.length - 1; k >= 0; k--) {
      const { at, style } = cuts[k]!;
      // TeX skips the space after a declaration
      let from = at + 1;
      while (nodes[from]?.type === 'whitespace') from++;
      const content = append(plain(nodes.slice(from, cuts[k + 1]?.at ?? nodes.length)), inner);
      inner = style ? [el(style.tag, content, style.className ? { className: [style.className] } : {})] : content;
    }
    return append(plain(nodes.slice(0, cuts[0]!.at)), inner);
  }

  /** Calls `fn` on each node, leaving out the value after a TeX parameter (`\looseness=-1`). */
  private each(nodes: Ast.Node[], fn: (n: Ast.Node) => void): void {
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i]!;
      fn(n);
      if (n.type === 'macro' && ASSIGNED.has(n.content)) {
        while (i + 1 < nodes.length && nodes[i + 1]!.type === 'string' && ASSIGNED_VALUE.test((nodes[i + 1] as Ast.String).content)) i++;
      }
    }
  }

  private node(n: Ast.Node): ElementContent[] {
    switch (n.type) {
      case 'string':
        return [text(n.content)];
      case 'whitespace':
        return [text(' ')];
      case 'parbreak':
        return [text(' ')];
      case 'comment':
        return [];
      case 'group':
        return this.inline(n.content);
      case 'inlinemath':
        return this.math(printRaw(n.content), false);
      case 'displaymath':
        return this.math(printRaw(n.content), true);
      case 'mathenv':
        return mathEnvironment(this, n);
      case 'verbatim':
        return n.env === 'comment' ? [] : [el('pre', [text(n.content.replace(/^\n/, ''))], { className: ['verbatim'] })];
      case 'verb':
        return n.env === 'verb' || n.env === 'verb*' ? [el('code', [text(n.content)])] : [text(n.content)];
      case 'environment':
        return environment(this, n);
      case 'macro':
        return this.macro(n);
      case 'root':
        return this.inline(n.content);
      default:
        return [];
    }
  }

  private macro(m: Ast.Macro): ElementContent[] {
    const name = m.content;
    if (DEFINING.has(name) || DROPPED.has(name) || ACCENTS.has(name)) return [];
    if (Object.hasOwn(SYMBOLS, name)) return [text(SYMBOLS[name]!)];
    const style = STYLES[name];
    if (style) return [el(style.tag, this.inline(lastArg(m)), style.className ? { className: [style.className] } : {})];
    if (PLAIN.has(name)) return this.inline(lastArg(m));
    const heading = HEADINGS[name];
    if (heading) return [el(heading, this.inline(lastArg(m)))];
    const special = this.special(m);
    if (special) return special;
    this.warn(`macro:${name}`, `\\${name} is not known to the converter: it is shown as its name and its arguments as text`);
    return [el('span', [text(`\\${name}`)], { className: ['latex-unknown'] }), ...(m.args ?? []).flatMap((a) => this.inline(a.content))];
  }

  /** The macros with a rendering of their own; undefined for one the converter does not know. */
  private special(m: Ast.Macro): ElementContent[] | undefined {
    switch (m.content) {
      case 'problemname': {
        const title = this.inline(lastArg(m));
        return textOf(title) ? [el('h1', title)] : [];
      }
      case 'problemyamlname':
        return this.context.name ? [text(this.context.name)] : [];
      case 'paragraph':
      case 'subparagraph':
        return [el('strong', this.inline(lastArg(m)), { className: ['paragraph'] }), text(' ')];
      case '\\':
      case 'newline':
      case 'linebreak':
        return [el('br')];
      case 'footnote':
      case 'thanks':
        return this.footnote(lastArg(m));
      case 'caption': {
        const number = this.captionNumber(m);
        return [el('figcaption', [...(number ? [text(`${number}: `)] : []), ...this.inline(lastArg(m))])];
      }
      case 'ref':
      case 'autoref':
      case 'cref':
      case 'Cref':
      case 'eqref':
        return [text(this.reference(rawText(lastArg(m))))];
      case 'cite':
        this.warn('cite', 'citations are shown as their keys: the statement has no bibliography');
        return [text(`[${rawText(lastArg(m))}]`)];
      case 'url':
      case 'nolinkurl': {
        const url = rawText(lastArg(m));
        return m.content === 'url' ? [el('a', [text(url)], { className: ['url'], href: url })] : [el('code', [text(url)])];
      }
      case 'href':
        return [el('a', this.inline(lastArg(m)), { className: ['href'], href: rawText(argsOf(m)[1] ?? []) })];
      case 'lstinline':
        return [el('code', [text(rawText(lastArg(m)))])];
      case 'ensuremath':
        return this.math(printRaw(lastArg(m)), false);
      case 'includegraphics':
        return this.image(rawText(lastArg(m)), '');
      case 'illustration': {
        const caption = this.inline(lastArg(m));
        const picture = this.image(rawText(argsOf(m)[1] ?? []), textOf(caption));
        return [el('figure', [...picture, el('figcaption', caption)], { className: ['illustration'] })];
      }
      case 'lstinputlisting':
        this.warn(`listing:${rawText(lastArg(m))}`, `the listing ${rawText(lastArg(m))} is read from a file the statement cannot show: left out`);
        return [];
      case 'multicolumn':
        return this.inline(lastArg(m));
      case 'item':
        this.warn('item', 'an \\item outside a list is shown as a bullet');
        return [text('• ')];
      default:
        return undefined;
    }
  }

  private reference(label: string): string {
    const number = this.floats.labels.get(label);
    if (number) return number;
    this.warn(`ref:${label}`, `the reference ${label} names no numbered figure or table: it is shown as ??`);
    return '??';
  }

  private footnote(content: Ast.Node[]): ElementContent[] {
    this.footnotes.push(this.inline(content));
    return [el('sup', [text(`[${this.footnotes.length}]`)], { className: ['footnote-ref'] })];
  }

  /** An image of the statement's directory, or its name in brackets when the statement cannot show it. */
  private image(ref: string, alt: string): ElementContent[] {
    const path = this.context.image(ref);
    if (!path) {
      this.warn(`image:${ref}`, `the image ${ref} is not a PNG, JPEG, GIF or SVG file of the statement's directory: its name is shown instead`);
      return [el('span', [text(`[${ref}]`)], { className: ['missing-image'] })];
    }
    if (!this.images.includes(path)) this.images.push(path);
    return [el('img', [], { dataStatementImage: path, alt })];
  }
}
