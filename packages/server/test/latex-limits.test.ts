import { describe, expect, it } from 'vitest';
import { LatexStatementError, prepareLatex, type PreparedStatement } from '../src/modules/problems/statements/latex.js';
import { LIMITS } from '../src/modules/problems/statements/latex-limits.js';

/**
 * The LaTeX converter on hostile statements: what a probe sent and what
 * killed or stalled the server before, each converted to HTML or refused with a LatexStatementError
 * that says why, never another exception. The bound on time is CPU time, not wall time, and is
 * generous for a loaded two-core machine: before these limits the same statements took 49 s or
 * overflowed the stack; the point is that the work is bounded, not how fast the machine is.
 */

const BOUND_MS = 3_000;

interface Outcome {
  prepared?: PreparedStatement;
  refused?: string;
  cpuMs: number;
}

function convert(text: string, siblings: Record<string, string> = {}): Outcome {
  const start = process.cpuUsage();
  const outcome: Outcome = { cpuMs: 0 };
  try {
    outcome.prepared = prepareLatex({ text, sibling: (name) => siblings[name], image: () => undefined });
    outcome.prepared.render(() => undefined);
  } catch (e) {
    // anything else than a refusal fails the test here
    if (!(e instanceof LatexStatementError)) throw e;
    outcome.refused = e.message;
  }
  const used = process.cpuUsage(start);
  outcome.cpuMs = (used.user + used.system) / 1000;
  return outcome;
}

/** A chain of macros each using the previous one twice: `levels` doublings in a few hundred bytes. */
const doubling = (levels: number, use = (top: string) => top): string => {
  const name = (i: number) => `\\m${String.fromCharCode(97 + i)}`;
  const defs = Array.from({ length: levels }, (_, i) => `\\newcommand{${name(i)}}{${i ? `${name(i - 1)}${name(i - 1)}` : 'xx'}}`);
  return `${defs.join('\n')}\n${use(name(levels - 1))}`;
};

describe('hostile LaTeX statements: refused with a reason, in bounded time', () => {
  it('500 nested itemize environments (the stack overflow that killed judge up)', () => {
    const out = convert(`${'\\begin{itemize}\\item '.repeat(500)}x${'\\end{itemize}'.repeat(500)}`);
    expect(out.refused).toBe(`it nests braces and environments deeper than ${LIMITS.nesting} levels`);
    expect(out.cpuMs).toBeLessThan(BOUND_MS);
  });

  it('5,000 nested braces (answered 500 before)', () => {
    const out = convert(`${'{'.repeat(5000)}x${'}'.repeat(5000)}`);
    expect(out.refused).toBe(`it nests braces and environments deeper than ${LIMITS.nesting} levels`);
    expect(out.cpuMs).toBeLessThan(BOUND_MS);
  });

  it('a ~540-byte macro fan-out, in text and in math (49 s and 828 MiB before)', () => {
    for (const use of [(m: string) => m, (m: string) => `$${m}$`]) {
      const text = doubling(26, use);
      expect(text.length).toBeLessThan(700);
      const out = convert(text);
      expect(out.refused).toBe(`its macros are used more than ${LIMITS.expansions} times once expanded`);
      expect(out.cpuMs).toBeLessThan(BOUND_MS);
    }
  });

  it('a macro whose arguments fan out (`#1` nine times, nested thirty deep)', () => {
    const out = convert(`\\newcommand{\\d}[1]{#1#1#1#1#1#1#1#1#1}${'\\d{'.repeat(30)}x${'}'.repeat(30)}`);
    expect(out.refused).toMatch(/^its macros (are used more than|expand to more than)/);
    expect(out.cpuMs).toBeLessThan(BOUND_MS);
  });

  it('a macro that uses itself, and two that use each other', () => {
    expect(convert('\\newcommand{\\a}{\\a x}\\a').refused).toBe(`its macros expand inside each other more than ${LIMITS.expansionDepth} times (a macro that uses itself?)`);
    expect(convert('\\def\\a{\\b}\\def\\b{\\a}\\a').refused).toMatch(/^its macros expand inside each other/);
  });

  it('thousands of optional arguments left open (the parser looked ahead for each `]`)', () => {
    const out = convert('\\item['.repeat(20_000));
    expect(out.refused).toBe(`it opens more than ${LIMITS.openOptional} optional arguments [ without closing them`);
    expect(out.cpuMs).toBeLessThan(BOUND_MS);
  });

  it('thousands of macros in a row, each taking the next as its argument (the parser overflowed its stack)', () => {
    for (const text of ['\\textbf'.repeat(10_000), `$${'\\frac'.repeat(10_000)}$`, '\\url \\href '.repeat(5_000)]) {
      const out = convert(text);
      expect(out.refused).toBe(`it has more than ${LIMITS.macroRun} macros in a row (each could take the next as its argument)`);
      expect(out.cpuMs).toBeLessThan(BOUND_MS);
    }
  });

  it('an \\input fan-out is refused while it is inlined, before it is built', () => {
    const siblings = { 'a.tex': '\\input{b}'.repeat(1000), 'b.tex': 'x'.repeat(10_000) };
    const out = convert('\\input{a}\\input{a}', siblings);
    expect(out.refused).toBe(`it is longer than ${LIMITS.text / 1024} KiB with its \\input files`);
    expect(out.cpuMs).toBeLessThan(BOUND_MS);
  });

  it('a statement longer than the limit, and one with more math than KaTeX should typeset', () => {
    expect(convert('x'.repeat(LIMITS.text + 1)).refused).toBe(`it is longer than ${LIMITS.text / 1024} KiB with its \\input files`);
    expect(convert(`$${'x+'.repeat(LIMITS.mathText / 2 + 1)}$`).refused).toBe(`its formulas hold more than ${LIMITS.mathText / 1024} KiB of math`);
    expect(convert('$x$ '.repeat(LIMITS.formulas + 1)).refused).toBe(`it has more than ${LIMITS.formulas} formulas`);
  });

  it('braces inside comments and verbatim neither count as nesting nor hide it', () => {
    const deepInComment = `%${'{'.repeat(100)}\n\\begin{verbatim}${'{'.repeat(100)}\\end{verbatim}\\verb|${'{'.repeat(100)}| ok`;
    expect(convert(deepInComment).refused).toBeUndefined();
    // closing braces in a \verb cannot make room for deeper real nesting
    const hidden = `${'{\\verb|}|'.repeat(100)}x${'}'.repeat(100)}`;
    expect(convert(hidden).refused).toBe(`it nests braces and environments deeper than ${LIMITS.nesting} levels`);
  });

  it('a chain of argument-less definitions that overflows the parser is a refusal, not a crash', () => {
    const out = convert('\\newcommand{}'.repeat(5_000));
    expect(out.refused).toEqual(expect.any(String));
  });
});

describe('the text macros that crashed the server', () => {
  it('\\textsuperscript and \\textsubscript, with and without an argument (NWERC 2023 fixingfractions)', () => {
    for (const [tex, html] of [
      ['Maths is hard.\\textsuperscript{[citation needed]}', 'Maths is hard.<sup>[citation needed]</sup>'],
      ['x\\textsuperscript{2}', 'x<sup>2</sup>'],
      ['H\\textsubscript{2}O', 'H<sub>2</sub>O'],
      ['\\textsubscript', '<sub></sub>'],
      ['\\textsuperscript', '<sup></sup>'],
    ]) {
      const out = convert(tex!);
      expect({ tex, refused: out.refused, html: out.prepared?.render(() => undefined) }).toEqual({ tex, refused: undefined, html });
    }
  });
});
