/**
 * LaTeX environments as HTML: lists, tables, figures, the problemtools sections, listings and math
 * environments. An environment the converter does not know shows its content with a warning; a
 * drawing (TikZ and the like) it cannot draw is left out with a word in its place.
 */
import type { ElementContent, Properties } from 'hast';
import type * as Ast from '@unified-latex/unified-latex-types';
import { printRaw } from '@unified-latex/unified-latex-util-print-raw';
import { FIGURES, KATEX_ENVIRONMENTS, PICTURES, SECTION_ENVIRONMENTS, TABLES, TRANSPARENT } from './latex-macros.js';
import { argsOf, el, envName, lastArg, text, type Writer } from './latex-writer.js';

const isMacro = (n: Ast.Node | undefined, name: string): n is Ast.Macro => n?.type === 'macro' && n.content === name;
const isSpace = (n: Ast.Node | undefined): boolean => n?.type === 'whitespace' || n?.type === 'parbreak' || n?.type === 'comment';
const blank = (nodes: Ast.Node[]): boolean => nodes.every(isSpace);

/** The nodes without white space (or blank lines) at either end. */
function trimNodes(nodes: Ast.Node[]): Ast.Node[] {
  let start = 0;
  let end = nodes.length;
  while (start < end && isSpace(nodes[start])) start++;
  while (end > start && isSpace(nodes[end - 1])) end--;
  return nodes.slice(start, end);
}

/** The items of a list: each \item's label and body (the parser may attach the body to the \item or leave it after it). */
function items(content: Ast.Node[]): { before: Ast.Node[]; items: { label?: Ast.Node[]; body: Ast.Node[] }[] } {
  const before: Ast.Node[] = [];
  const found: { label?: Ast.Node[]; body: Ast.Node[] }[] = [];
  // items inside a grouping environment (`\\begin{samepage}\\item ...`) are the list's own
  const flat = content.flatMap((n) => (n.type === 'environment' && TRANSPARENT.has(envName(n)) && n.content.some((c) => isMacro(c, 'item')) ? n.content : [n]));
  for (const n of flat) {
    if (isMacro(n, 'item')) {
      const args = n.args ?? [];
      const attached = args.length >= 4 ? [...args.at(-1)!.content] : [];
      found.push({ label: args.find((a) => a.openMark === '[')?.content, body: attached });
    } else if (found.length) found.at(-1)!.body.push(n);
    else before.push(n);
  }
  // the parser puts a blank line between the items it attaches bodies to: not a paragraph of the item
  return { before, items: found.map((item) => ({ ...item, body: trimNodes(item.body) })) };
}

function list(w: Writer, env: Ast.Environment, tag: 'ul' | 'ol' | 'dl'): ElementContent[] {
  const { before, items: all } = items(env.content);
  const children = all.flatMap(({ label, body }): ElementContent[] => {
    if (tag === 'dl') return [el('dt', w.inline(label ?? [])), el('dd', w.blocks(body))];
    const marker = label ? [el('span', w.inline(label), { className: ['item-label'] }), text(' ')] : [];
    return [el('li', [...marker, ...w.blocks(body)])];
  });
  return [...w.blocks(before), el(tag, children)];
}

/** Rules between rows, left out of a table. */
const RULES = new Set(['hline', 'toprule', 'midrule', 'bottomrule', 'cline', 'cmidrule', 'addlinespace', 'endhead', 'endfirsthead', 'endfoot', 'endlastfoot', 'noalign']);

/** The column alignments a tabular's spec declares (`|l|c|r|`, `p{3cm}`, `*{3}{c}`, `>{...}X`). */
function alignments(spec: string): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  const skipGroup = (i: number): number => {
    if (spec[i] !== '{') return i;
    let depth = 0;
    for (let j = i; j < spec.length; j++) {
      if (spec[j] === '{') depth++;
      else if (spec[j] === '}' && --depth === 0) return j + 1;
    }
    return spec.length;
  };
  for (let i = 0; i < spec.length && out.length < 200; ) {
    const c = spec[i]!;
    if (c === 'l' || c === 'c' || c === 'r') out.push(c === 'c' ? 'center' : c === 'r' ? 'right' : undefined);
    else if (c === 'p' || c === 'm' || c === 'b') {
      out.push(undefined);
      i = skipGroup(i + 1);
      continue;
    } else if (c === 'X') out.push(undefined);
    else if (c === '@' || c === '!' || c === '>' || c === '<') {
      i = skipGroup(i + 1);
      continue;
    } else if (c === '*') {
      const countEnd = skipGroup(i + 1);
      const times = Math.min(50, Number.parseInt(spec.slice(i + 2, countEnd - 1), 10) || 0);
      const bodyEnd = skipGroup(countEnd);
      const inner = alignments(spec.slice(countEnd + 1, bodyEnd - 1));
      for (let t = 0; t < times && out.length < 200; t++) out.push(...inner);
      i = bodyEnd;
      continue;
    }
    i++;
  }
  return out;
}

/** The rows of a tabular, each a list of cells: split at `&` and `\\`, rules left out, empty rows dropped. */
function rows(content: Ast.Node[]): Ast.Node[][][] {
  const all: Ast.Node[][][] = [[[]]];
  for (const n of content) {
    const row = all.at(-1)!;
    if (n.type === 'string' && n.content === '&') row.push([]);
    else if (n.type !== 'macro') row.at(-1)!.push(n);
    else if (n.content === '\\' || n.content === 'tabularnewline') all.push([[]]);
    else if (!RULES.has(n.content)) row.at(-1)!.push(n);
  }
  return all.filter((row) => !row.every(blank)).map((row) => row.map(trimNodes));
}

function cell(w: Writer, nodes: Ast.Node[], align: string | undefined): ElementContent {
  const content = nodes.filter((n) => n.type !== 'whitespace' && n.type !== 'comment');
  const only = content.length === 1 ? content[0] : undefined;
  if (isMacro(only, 'multicolumn')) {
    const [span = [], spec = [], inner = []] = argsOf(only);
    const colSpan = Math.min(1000, Math.max(1, Number.parseInt(printRaw(span), 10) || 1));
    const [spanAlign] = alignments(printRaw(spec));
    return el('td', w.inline(inner), { colSpan, ...(spanAlign ? { align: spanAlign } : {}) });
  }
  const props: Properties = align ? { align } : {};
  return el('td', w.inline(nodes), props);
}

function table(w: Writer, env: Ast.Environment): ElementContent[] {
  const columns = alignments(printRaw(lastArg(env)));
  const body = rows(env.content).map((row) => {
    // a cell's column counts the spans before it
    let column = 0;
    return el(
      'tr',
      row.map((c) => {
        const td = cell(w, c, columns[column]);
        column += Number(td.type === 'element' && td.properties['colSpan']) || 1;
        return td;
      }),
    );
  });
  return [el('table', [el('tbody', body)], { className: ['tabular'] })];
}

function figure(w: Writer, env: Ast.Environment, className: string): ElementContent[] {
  return [el('figure', w.blocks(env.content), { className: [className] })];
}

/** Math environments for KaTeX: those it knows as they are, the others as the nearest it knows. */
export function mathEnvironment(w: Writer, env: Ast.Environment): ElementContent[] {
  const name = envName(env);
  const body = printRaw(env.content);
  if (name === 'math') return w.math(body, false);
  if (KATEX_ENVIRONMENTS.has(name)) return w.math(printRaw(env), true);
  if (name.startsWith('eqnarray')) return w.math(`\\begin{array}{rcl}${body}\\end{array}`, true);
  if (name.startsWith('multline') || name.startsWith('gather')) return w.math(`\\begin{gathered}${body}\\end{gathered}`, true);
  if (name.startsWith('flalign') || name.startsWith('align')) return w.math(`\\begin{aligned}${body}\\end{aligned}`, true);
  return w.math(body, true);
}

/** Listing environments: their text as it is, in a <pre>. */
const LISTINGS = new Set(['lstlisting', 'Verbatim', 'BVerbatim', 'minted', 'alltt', 'listing']);

export function environment(w: Writer, env: Ast.Environment): ElementContent[] {
  const name = envName(env);
  if (name === 'itemize') return list(w, env, 'ul');
  if (name === 'enumerate') return list(w, env, 'ol');
  if (name === 'description') return list(w, env, 'dl');
  if (['tabular', 'tabular*', 'tabularx', 'longtable', 'array'].includes(name)) return table(w, env);
  if (FIGURES.has(name)) return figure(w, env, 'figure');
  if (TABLES.has(name)) return figure(w, env, 'table');
  if (Object.hasOwn(SECTION_ENVIRONMENTS, name)) return [el('h2', [text(SECTION_ENVIRONMENTS[name]!)]), ...w.blocks(env.content)];
  if (name === 'quote' || name === 'quotation' || name === 'verse') return [el('blockquote', w.blocks(env.content))];
  if (LISTINGS.has(name)) return [el('pre', [text(printRaw(env.content).replace(/^\n/, ''))], { className: ['verbatim'] })];
  if (name === 'comment') return [];
  if (TRANSPARENT.has(name)) return [el('div', w.blocks(env.content), { className: [name] })];
  if (name === 'displaymath' || name === 'math' || KATEX_ENVIRONMENTS.has(name) || /^(eqnarray|multline|flalign)\*?$/.test(name)) return mathEnvironment(w, env);
  if (PICTURES.has(name)) {
    w.warn(`env:${name}`, `the ${name} drawing cannot be shown: a note stands in its place`);
    return [el('p', [text('[a drawing that cannot be shown here]')], { className: ['latex-unknown'] })];
  }
  w.warn(`env:${name}`, `the environment ${name} is not known to the converter: its content is shown as it is`);
  return [el('div', w.blocks(env.content), { className: ['latex-unknown'] })];
}
