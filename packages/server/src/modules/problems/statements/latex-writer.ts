/**
 * What the parts of the LaTeX converter share: the writer that turns LaTeX nodes into HTML (hast)
 * nodes, as the environment handlers see it, and the small helpers that build hast.
 */
import type { Element, ElementContent, Properties, Text } from 'hast';
import type * as Ast from '@unified-latex/unified-latex-types';
import { printRaw } from '@unified-latex/unified-latex-util-print-raw';

export interface Writer {
  /** Content that may hold paragraphs and blocks: split into `<p>` at blank lines when `paragraphs`. */
  blocks(nodes: Ast.Node[], paragraphs?: boolean): ElementContent[];
  /** Content of one line (an argument, a cell, a label). */
  inline(nodes: Ast.Node[]): ElementContent[];
  /** A formula for KaTeX, counted against the budget. */
  math(tex: string, display: boolean): ElementContent[];
  /** Reports something shown otherwise than the author wrote it, once per `key`. */
  warn(key: string, message: string): void;
  /** The number of the figure or table a \caption belongs to. */
  captionNumber(caption: Ast.Macro): string | undefined;
}

export const el = (tagName: string, children: ElementContent[] = [], properties: Properties = {}): Element => ({ type: 'element', tagName, properties, children });
export const text = (value: string): Text => ({ type: 'text', value });

/** The elements that are blocks of their own: a paragraph ends before them. */
const BLOCKS = new Set(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'dl', 'table', 'figure', 'figcaption', 'pre', 'blockquote', 'hr']);
export const isBlock = (n: ElementContent): boolean => n.type === 'element' && BLOCKS.has(n.tagName);

/** Appends without spreading into a call (a long list would overflow the argument stack). */
export function append<T>(to: T[], items: readonly T[]): T[] {
  for (const item of items) to.push(item);
  return to;
}

/** The name of an environment node (a math environment's is a node of its own). */
export const envName = (env: Ast.Environment): string => (typeof env.env === 'string' ? env.env : printRaw(env.env as Ast.Node));

/** The arguments' contents; a missing argument is empty. */
export const argsOf = (m: Ast.Macro | Ast.Environment): Ast.Node[][] => (m.args ?? []).map((a) => a.content);
export const lastArg = (m: Ast.Macro | Ast.Environment): Ast.Node[] => argsOf(m).at(-1) ?? [];

/** The plain text of hast nodes (an image's alt text from its caption). */
export const textOf = (nodes: ElementContent[]): string =>
  nodes
    .map((n) => (n.type === 'text' ? n.value : n.type === 'element' ? textOf(n.children) : ''))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
