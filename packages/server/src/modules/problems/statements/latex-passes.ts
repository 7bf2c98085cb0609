/**
 * Passes over the parsed statement before it is written as HTML: the arguments that are names and
 * not text (URLs, file names, labels) kept as they were typed, out of reach of the ligature pass
 * (which would turn a URL's `--` into a dash), and the figures and tables numbered so that \ref and
 * \caption can say "Figure 2". Both recurse once per level of a tree whose depth is checked first.
 */
import type * as Ast from '@unified-latex/unified-latex-types';
import { printRaw } from '@unified-latex/unified-latex-util-print-raw';
import { FIGURES, TABLES } from './latex-macros.js';
import { envName } from './latex-writer.js';

/** Macros with an argument that is a name: which one (by position; -1 the last). */
const RAW_ARGUMENT: Record<string, number> = {
  url: -1, nolinkurl: -1, href: 1, includegraphics: -1, illustration: 1, label: -1, ref: -1, autoref: -1,
  cref: -1, Cref: -1, eqref: -1, cite: -1, lstinline: -1, lstinputlisting: -1,
};

const RAW = 'raw';

function eachChild(nodes: Ast.Node[], fn: (n: Ast.Node) => void): void {
  for (const n of nodes) {
    fn(n);
    if ((n.type === 'macro' || n.type === 'environment' || n.type === 'mathenv') && n.args) for (const a of n.args) eachChild(a.content, fn);
    if ('content' in n && Array.isArray(n.content)) eachChild(n.content, fn);
  }
}

/** Escaped characters of the text (`50\\% of`). */
const ESCAPED = new Set(['%', '$', '&', '#', '_', '{', '}']);
const MATH = new Set(['inlinemath', 'displaymath', 'mathenv']);

/**
 * The escaped characters of the text as plain characters, before the ligature pass, which would
 * take the space after `\\%` for part of an accent; math keeps them for KaTeX.
 */
export function unescapeCharacters(nodes: Ast.Node[]): void {
  for (const n of nodes) {
    if (MATH.has(n.type)) continue;
    if (n.type === 'macro' && ESCAPED.has(n.content) && !n.args?.length) {
      const plain = n as unknown as Ast.String;
      plain.type = 'string';
      continue;
    }
    if ((n.type === 'macro' || n.type === 'environment') && n.args) for (const a of n.args) unescapeCharacters(a.content);
    if ('content' in n && Array.isArray(n.content)) unescapeCharacters(n.content);
  }
}

/** Keeps the name arguments as one raw piece of text each. */
export function freezeRawArguments(root: Ast.Root): void {
  eachChild(root.content, (n) => {
    if (n.type !== 'macro' || !n.args?.length || !Object.hasOwn(RAW_ARGUMENT, n.content)) return;
    const at = RAW_ARGUMENT[n.content]!;
    const arg = n.args.at(at);
    if (arg) arg.content = [{ type: 'verb', env: RAW, escape: '', content: printRaw(arg.content) }];
  });
}

/** The text of a name argument, its TeX escapes (`\%`, `\_`, `\#`, `\&`, `\~`) undone. */
export function rawText(nodes: Ast.Node[]): string {
  const only = nodes.length === 1 ? nodes[0] : undefined;
  const raw = only?.type === 'verb' && only.env === RAW ? only.content : printRaw(nodes);
  return raw.replace(/\\([%_#&~$])/g, '$1').trim();
}

/** Figure and table numbers: by \caption, and by the \label of the float that caption is in. */
export interface FloatNumbers {
  captions: Map<Ast.Macro, string>;
  labels: Map<string, string>;
}

/** Numbers the floats with a caption in order, figures and tables each on their own count. */
export function numberFloats(root: Ast.Root): FloatNumbers {
  const numbers: FloatNumbers = { captions: new Map(), labels: new Map() };
  const count = { Figure: 0, Table: 0 };
  const walk = (nodes: Ast.Node[], float: { kind: 'Figure' | 'Table'; number?: string; labels: string[] } | undefined): void => {
    for (const n of nodes) {
      if (n.type === 'environment' && (FIGURES.has(envName(n)) || TABLES.has(envName(n)))) {
        const inner = { kind: FIGURES.has(envName(n)) ? ('Figure' as const) : ('Table' as const), labels: [] as string[], number: undefined as string | undefined };
        walk(n.content, inner);
        for (const label of inner.labels) if (inner.number) numbers.labels.set(label, inner.number);
        continue;
      }
      if (n.type === 'macro' && float && n.content === 'caption') {
        float.number ??= String(++count[float.kind]);
        numbers.captions.set(n, `${float.kind} ${float.number}`);
      }
      if (n.type === 'macro' && float && n.content === 'label' && n.args?.length) float.labels.push(rawText(n.args.at(-1)!.content));
      if (n.type === 'macro' && n.args) for (const a of n.args) walk(a.content, float);
      if (n.type !== 'macro' && 'content' in n && Array.isArray(n.content)) walk(n.content, float);
    }
  };
  walk(root.content, undefined);
  return numbers;
}
