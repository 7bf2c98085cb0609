/**
 * The macros a statement defines itself (\newcommand and its kin, a plain \def, \DeclareMathOperator),
 * expanded where they are used, in text and in math, within the converter's budget: every use and
 * every node it produces is counted, so that a chain of macros that each use the previous one twice
 * is refused after a bounded amount of work instead of growing to gigabytes.
 */
import type * as Ast from '@unified-latex/unified-latex-types';
import { attachMacroArgs, getNamedArgsContent } from '@unified-latex/unified-latex-util-arguments';
import { LATEX_NEWCOMMAND, parseMacroSubstitutions, XPARSE_NEWCOMMAND } from '@unified-latex/unified-latex-util-macros';
import { printRaw } from '@unified-latex/unified-latex-util-print-raw';
import { LatexStatementError } from './latex-error.js';
import { LIMITS, type Budget } from './latex-limits.js';

/** The macros that define others: never expanded inside, and dropped from the output. */
export const DEFINING = new Set([...LATEX_NEWCOMMAND, ...XPARSE_NEWCOMMAND, 'def', 'DeclareMathOperator']);

interface Definition {
  name: string;
  signature: string;
  body: Ast.Node[];
  /** The first argument's value when a use leaves it out (`\\newcommand{\\x}[2][default]{...}`). */
  defaultArg?: Ast.Node[] | undefined;
}

/** A `#n` in a macro's body, as the library's parseMacroSubstitutions marks it. */
interface HashNumber {
  type: 'hash_number';
  number: number;
}

const tooDeep = (): LatexStatementError => new LatexStatementError(`it nests deeper than ${LIMITS.treeDepth} levels once its macros are expanded`);

/** The children lists of a node, for walking the tree. */
function childLists(node: Ast.Node): Ast.Node[][] {
  const lists: Ast.Node[][] = [];
  if (node.type === 'macro' || node.type === 'environment' || node.type === 'mathenv') for (const a of node.args ?? []) lists.push(a.content);
  if ('content' in node && Array.isArray(node.content)) lists.push(node.content);
  return lists;
}

const nameOf = (nodes: Ast.Node[] | null | undefined): string => printRaw(nodes ?? []).trim().replace(/^\\/, '');

/**
 * A \newcommand's (or \NewDocumentCommand's) name, signature and body; undefined for one without a
 * name. Read here rather than with the library's listNewcommands, which logs each malformed one.
 */
function definitionOf(m: Ast.Macro): Definition | undefined {
  if (!m.args?.length) return undefined;
  if (XPARSE_NEWCOMMAND.has(m.content)) {
    const [name, signature, body] = m.args.map((a) => a.content);
    return name?.length ? { name: nameOf(name), signature: printRaw(signature ?? []).trim(), body: body ?? [] } : undefined;
  }
  const named = getNamedArgsContent(m, m.args.length === 6 ? ['starred', null, 'name', 'numArgs', 'default', 'body'] : ['starred', 'name', 'numArgs', 'default', 'body']);
  const name = nameOf(named['name']);
  if (!name) return undefined;
  const count = Math.min(9, Number.parseInt(printRaw(named['numArgs'] ?? []), 10) || 0);
  const optional = named['default'] ? [`O{${printRaw(named['default'])}}`] : [];
  const signature = [...optional, ...Array.from({ length: count - optional.length }, () => 'm')].join(' ');
  return { name, signature, body: named['body'] ?? [], defaultArg: named['default'] ?? undefined };
}

/** The \newcommand family's definitions anywhere in the tree, in order. */
function newcommands(nodes: Ast.Node[], found: Definition[] = []): Definition[] {
  for (const n of nodes) {
    if (n.type === 'macro' && (LATEX_NEWCOMMAND.has(n.content) || XPARSE_NEWCOMMAND.has(n.content))) {
      const d = definitionOf(n);
      if (d) found.push(d);
      continue;
    }
    for (const list of childLists(n)) newcommands(list, found);
  }
  return found;
}

/** \def\name#1#2{body} (parameters numbered in order, no delimiters) and \DeclareMathOperator{\name}{text}, at the top level. */
function otherDefinitions(nodes: Ast.Node[]): Definition[] {
  const found: Definition[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i]!;
    if (n.type !== 'macro') continue;
    if (n.content === 'DeclareMathOperator' && n.args?.length) {
      const [star, name, text] = n.args.map((a) => a.content);
      const body: Ast.Node[] = [{ type: 'macro', content: star?.length ? 'operatorname*' : 'operatorname' }, { type: 'group', content: text ?? [] }];
      found.push({ name: printRaw(name ?? []).replace(/^\\/, '').trim(), signature: '', body });
      continue;
    }
    const named = nodes[i + 1];
    if (n.content !== 'def' || named?.type !== 'macro') continue;
    let j = i + 2;
    let params = 0;
    while (nodes[j]?.type === 'string' && (nodes[j] as Ast.String).content === '#' && (nodes[j + 1] as Ast.String | undefined)?.content === String(params + 1)) {
      params++;
      j += 2;
    }
    const body = nodes[j];
    if (body?.type !== 'group') continue;
    found.push({ name: named.content, signature: Array.from({ length: params }, () => 'm').join(' '), body: body.content });
    // the name, parameters and body go with the \def
    nodes.splice(i + 1, j - i);
  }
  return found;
}

/** The body with each `#n` marked, in every list of it. */
function markParameters(nodes: Ast.Node[]): Ast.Node[] {
  const inner = nodes.map((node) => {
    const copy = { ...node } as Ast.Node & { args?: Ast.Argument[]; content?: unknown };
    if ('args' in node && node.args) copy.args = node.args.map((a) => ({ ...a, content: markParameters(a.content) }));
    if ('content' in node && Array.isArray(node.content)) copy.content = markParameters(node.content);
    return copy as Ast.Node;
  });
  return parseMacroSubstitutions(inner) as Ast.Node[];
}

/**
 * A copy of a macro's body (or an argument) with its parameters replaced by the arguments' copies,
 * each node counted: the copy is a tree even where a body uses an argument twice.
 */
function substitute(nodes: Ast.Node[], args: Ast.Node[][] | undefined, budget: Budget): Ast.Node[] {
  const out: Ast.Node[] = [];
  for (const node of nodes) {
    const hash = node as unknown as HashNumber;
    if (hash.type === 'hash_number' && args) {
      const arg = args[hash.number - 1];
      for (const n of arg ? substitute(arg, undefined, budget) : [{ type: 'string', content: `#${hash.number}` } as Ast.Node]) out.push(n);
      continue;
    }
    budget.expandedNode();
    const copy = { ...node } as Ast.Node & { args?: Ast.Argument[]; content?: unknown };
    if ('args' in node && node.args) copy.args = node.args.map((a) => ({ ...a, content: substitute(a.content, args, budget) }));
    if ('content' in node && Array.isArray(node.content)) copy.content = substitute(node.content, args, budget);
    out.push(copy as Ast.Node);
  }
  return out;
}

/** The arguments of one use of a macro, its default standing in for a first argument left out. */
function argumentsOf(use: Ast.Macro, d: Definition): Ast.Node[][] {
  const args = (use.args ?? []).map((a) => a.content);
  const first = use.args?.[0];
  if (d.defaultArg && first && first.openMark === '' && !first.content.length) args[0] = d.defaultArg;
  return args;
}

/** Expands the statement's own macros in place. */
export function expandOwnMacros(root: Ast.Root, budget: Budget): void {
  const defined: Definition[] = [...newcommands(root.content), ...otherDefinitions(root.content)];
  if (!defined.length) return;
  const signatures = Object.fromEntries(defined.map((d) => [d.name, { signature: d.signature }]));
  for (const d of defined) attachMacroArgs({ type: 'root', content: d.body }, signatures);
  attachMacroArgs(root, signatures);
  // a later definition of the same name wins, as \renewcommand does
  const bodies = new Map(defined.map((d) => [d.name, { ...d, body: markParameters(d.body) }]));

  const expandIn = (nodes: Ast.Node[], depth: number, nesting: number): void => {
    if (depth > LIMITS.treeDepth) throw tooDeep();
    const out: Ast.Node[] = [];
    for (const node of nodes) {
      const d = node.type === 'macro' ? bodies.get(node.content) : undefined;
      if (!d) {
        if (!(node.type === 'macro' && DEFINING.has(node.content))) for (const list of childLists(node)) expandIn(list, depth + 1, nesting);
        out.push(node);
        continue;
      }
      if (nesting >= LIMITS.expansionDepth) throw new LatexStatementError(`its macros expand inside each other more than ${LIMITS.expansionDepth} times (a macro that uses itself?)`);
      budget.expansion();
      const replacement = substitute(d.body, argumentsOf(node as Ast.Macro, d), budget);
      expandIn(replacement, depth, nesting + 1);
      for (const r of replacement) out.push(r);
    }
    nodes.length = 0;
    for (const n of out) nodes.push(n);
  };
  expandIn(root.content, 0, 0);
}

/** Refuses a parsed tree deeper than LIMITS.treeDepth, walking it without recursion. */
export function checkTreeDepth(root: Ast.Root): void {
  const stack: [Ast.Node[], number][] = [[root.content, 1]];
  while (stack.length) {
    const [nodes, depth] = stack.pop()!;
    if (depth > LIMITS.treeDepth) throw tooDeep();
    for (const node of nodes) for (const list of childLists(node)) stack.push([list, depth + 1]);
  }
}
