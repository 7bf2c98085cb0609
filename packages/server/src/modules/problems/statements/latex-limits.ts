/**
 * The bounds that make converting a LaTeX statement finite by construction, whatever the upload
 * holds. The parser and every later pass recurse once per level of nesting, the statement's own
 * macros can multiply its size (a 500-byte chain of doubling \newcommand is 2^30 nodes), and
 * KaTeX's markup is about a hundred times the size of the formula it typesets. Each bound is far
 * above what a contest statement needs (the NWERC and problemtools statements nest at most five
 * levels, are under 5 KiB and expand a few dozen macros) and refusing past it is a
 * LatexStatementError with the reason.
 */
import { LatexStatementError } from './latex-error.js';

export const LIMITS = {
  /** Characters of the statement with its \input files inlined; parsing costs about a second per 100 KiB. */
  text: 128 * 1024,
  /** Levels of braces and environments in the text, checked before the parser recurses into them. */
  nesting: 32,
  /**
   * Optional arguments opened (`\\item[`) and not yet closed by a `]`: the parser looks ahead for the
   * `]` of each, so that thousands left open cost it minutes.
   */
  openOptional: 32,
  /** Macros in a row, nothing between them: each may take the next as its argument, one level deeper each. */
  macroRun: 64,
  /** Levels of the parsed tree once the statement's macros are expanded (groups, arguments, environments, math). */
  treeDepth: 64,
  /** Uses of the statement's own macros expanded, in all. */
  expansions: 5_000,
  /** Macros expanding within another's expansion, one inside the other (a macro that uses itself stops here). */
  expansionDepth: 32,
  /** Nodes the expansions produce, in all: what a fan-out of macros would multiply. */
  expandedNodes: 100_000,
  /** Characters of math, in all formulas together, that KaTeX typesets. */
  mathText: 32 * 1024,
  /** Formulas. */
  formulas: 5_000,
} as const;

/** Environments whose content the parser reads as plain characters: their braces are not nesting. */
const VERBATIM = new Set(['verbatim', 'verbatim*', 'comment', 'lstlisting', 'minted']);

const isLetter = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

/** The name in `{name}` at `from` (spaces before it skipped), and where it ends; undefined when none. */
function bracedName(text: string, from: number): { name: string; end: number } | undefined {
  let i = from;
  while (text[i] === ' ') i++;
  if (text[i] !== '{') return undefined;
  const close = text.indexOf('}', i);
  if (close < 0 || close - i > 64) return undefined;
  return { name: text.slice(i + 1, close).trim(), end: close + 1 };
}

/**
 * Refuses a statement that nests braces and environments deeper than LIMITS.nesting, in one pass
 * over its characters and before the recursive parser sees it (500 nested `itemize` overflowed its
 * stack). Comments, `\verb` and verbatim environments are skipped as the parser skips them, so that
 * a brace inside them neither counts nor hides a level.
 */
export function checkNesting(text: string): void {
  let depth = 0;
  let optional = 0;
  let run = 0;
  const deeper = (): void => {
    if (++depth > LIMITS.nesting) throw new LatexStatementError(`it nests braces and environments deeper than ${LIMITS.nesting} levels`);
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c !== '\\' && c !== ' ' && c !== '\n' && c !== '\t') run = 0;
    if (c === '%') {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? text.length : eol + 1;
    } else if (c === '{') {
      deeper();
      i++;
    } else if (c === '}') {
      depth = Math.max(0, depth - 1);
      i++;
    } else if (c === ']') {
      optional = Math.max(0, optional - 1);
      i++;
    } else if (c !== '\\') i++;
    else if (!isLetter(text[i + 1] ?? '')) i += 2; // \{ \} \% \\ and the like
    else {
      let j = i + 1;
      while (j < text.length && isLetter(text[j]!)) j++;
      if (++run > LIMITS.macroRun) throw new LatexStatementError(`it has more than ${LIMITS.macroRun} macros in a row (each could take the next as its argument)`);
      i = controlWord(text, text.slice(i + 1, j), j);
    }
  }
  function controlWord(text: string, name: string, after: number): number {
    if (name === 'verb') {
      run = 0; // its text ends the row
      const start = text[after] === '*' ? after + 1 : after;
      const close = text.indexOf(text[start] ?? '', start + 1);
      return close < 0 ? text.length : close + 1;
    }
    if (name !== 'begin' && name !== 'end') {
      let j = after;
      while (text[j] === ' ') j++;
      if (text[j] !== '[') return after;
      if (++optional > LIMITS.openOptional) throw new LatexStatementError(`it opens more than ${LIMITS.openOptional} optional arguments [ without closing them`);
      return j + 1;
    }
    const env = bracedName(text, after);
    if (!env) return after;
    run = 0; // an environment's name is not an argument of what comes before
    if (name === 'end') {
      depth = Math.max(0, depth - 1);
      return env.end;
    }
    deeper();
    if (!VERBATIM.has(env.name)) return env.end;
    const close = text.indexOf(`\\end{${env.name}}`, env.end);
    depth--;
    return close < 0 ? text.length : close + `\\end{${env.name}}`.length;
  }
}

/** What converting one statement may still spend; each count refuses the statement past its limit. */
export class Budget {
  private expansions = 0;
  private nodes = 0;
  private mathText = 0;
  private formulas = 0;

  expansion(): void {
    if (++this.expansions > LIMITS.expansions) throw new LatexStatementError(`its macros are used more than ${LIMITS.expansions} times once expanded`);
  }

  expandedNode(): void {
    if (++this.nodes > LIMITS.expandedNodes) throw new LatexStatementError(`its macros expand to more than ${LIMITS.expandedNodes} pieces`);
  }

  formula(tex: string): void {
    this.mathText += tex.length;
    if (++this.formulas > LIMITS.formulas) throw new LatexStatementError(`it has more than ${LIMITS.formulas} formulas`);
    if (this.mathText > LIMITS.mathText) throw new LatexStatementError(`its formulas hold more than ${LIMITS.mathText / 1024} KiB of math`);
  }
}
