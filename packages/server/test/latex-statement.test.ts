import { describe, expect, it } from 'vitest';
import { LatexStatementError, prepareLatex, type PreparedStatement, type StatementSource } from '../src/modules/problems/statements/latex.js';
import { resolveImage } from '../src/modules/problems/statements/images.js';

/**
 * The LaTeX converter on what problemtools statements hold: each construct a statement author
 * relies on comes out as the HTML a browser shows for it. The package and HTTP side is in
 * package-statements.test.ts.
 */

const FILES = new Set(['problem_statement/pic.png', 'problem_statement/photo.jpg', 'problem_statement/plot.svg', 'problem_statement/sub/deep.png']);

function prepare(text: string, siblings: Record<string, string> = {}): PreparedStatement {
  const source: StatementSource = {
    text,
    sibling: (name) => siblings[name],
    image: (ref) => resolveImage('problem_statement', ref, (p) => FILES.has(p)),
  };
  return prepareLatex(source);
}

const html = (text: string, siblings: Record<string, string> = {}): string =>
  prepare(text, siblings).render((path) => `/api/v1/files/${path.slice(path.lastIndexOf('/') + 1)}`);

const squeeze = (s: string) => s.replace(/\s+/g, ' ');

describe('LaTeX statements as HTML', () => {
  it('makes \\problemname the title and sections headings', () => {
    expect(squeeze(html('\\problemname{Hello}\n\\section*{Input}\nOne line.\n\\subsection*{Limits}\nSmall.'))).toBe(
      '<h1>Hello</h1><h2>Input</h2>One line.<h3>Limits</h3>Small.',
    );
    // problemtools' Input and Output environments open their sections
    expect(html('\\begin{Input}One line.\\end{Input}\\begin{Output}A number.\\end{Output}')).toBe('<h2>Input</h2>One line.<h2>Output</h2>A number.');
  });

  it('typesets inline and display math with KaTeX, as HTML and MathML', () => {
    for (const [tex, display] of [
      ['$a \\cdot b$', false],
      ['\\(a \\cdot b\\)', false],
      ['$$a \\cdot b$$', true],
      ['\\[a \\cdot b\\]', true],
      ['\\begin{equation*}a \\cdot b\\end{equation*}', true],
      ['\\begin{align*}a &= b \\\\ c &= d\\end{align*}', true],
    ] as const) {
      const out = html(tex);
      expect(out).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML"');
      expect(out).toContain('class="katex-html"');
      expect({ tex, display: out.includes('katex-display') }).toEqual({ tex, display });
    }
    expect(html('$a \\cdot b$')).toContain('⋅');
  });

  it('expands the macros the statement defines, in text and in math', () => {
    const out = html('\\newcommand{\\name}{Alice}\\newcommand{\\dist}[1]{d(#1)}\nHello \\name, compute $\\dist{x}$.');
    expect(out).toContain('Hello Alice, compute');
    expect(out).toContain('<annotation encoding="application/x-tex">d(x)</annotation>');
    expect(out).not.toContain('newcommand');
  });

  it('shows \\illustration as a figure and \\includegraphics as an image, trying the usual extensions', () => {
    expect(html('\\illustration{0.4}{pic.png}{A \\emph{nice} picture}')).toBe(
      '<figure class="illustration"><img alt="A nice picture" src="/api/v1/files/pic.png"><figcaption>A <em>nice</em> picture</figcaption></figure>',
    );
    expect(squeeze(html('\\begin{figure}\\centering\\includegraphics[width=0.5\\textwidth]{photo}\\caption{A photo}\\end{figure}'))).toBe(
      '<figure class="figure"><img alt="" src="/api/v1/files/photo.jpg"><figcaption>Figure 1: A photo</figcaption></figure>',
    );
    expect(html('\\includegraphics{plot}')).toContain('src="/api/v1/files/plot.svg"');
    expect(html('\\includegraphics{sub/deep}')).toContain('src="/api/v1/files/deep.png"');
  });

  it('shows no image outside the statement directory, nor one that is missing: its name stands in its place, with a warning', () => {
    for (const ref of ['../secret.png', '/etc/passwd', 'sub/../../x.png', 'missing', 'https://example.com/x.png', 'javascript:alert(1)', 'drawing.pdf']) {
      const prepared = prepare(`Before \\includegraphics{${ref}} after`);
      expect({ ref, images: prepared.images }).toEqual({ ref, images: [] });
      const out = prepared.render(() => '/should-not-appear');
      expect({ ref, out: squeeze(out) }).toEqual({ ref, out: `Before <span class="missing-image">[${ref}]</span> after` });
      expect(prepared.warnings).toEqual([expect.stringContaining(`the image ${ref} is not`)]);
    }
  });

  it('converts lists, tables, text styles, verbatim, links and footnotes', () => {
    const out = squeeze(
      html(
        [
          '\\begin{itemize}\\item one \\item two\\end{itemize}',
          '\\begin{enumerate}\\item first\\end{enumerate}',
          '\\begin{description}\\item[Term] meaning\\end{description}',
          '\\begin{tabular}{|l|r|}\\hline a & b \\\\ c & d \\end{tabular}',
          '\\emph{e} \\textbf{b} \\textit{i} \\texttt{t} \\underline{u}',
          '\\begin{verbatim}\nx < y && z\n\\end{verbatim}',
          '\\url{https://icpc.global} \\href{https://kattis.com}{Kattis}',
          'Text\\footnote{A note.} more.',
        ].join('\n\n'),
      ),
    );
    expect(out).toContain('<ul><li>one</li><li>two</li></ul>');
    expect(out).toContain('<ol><li>first</li></ol>');
    expect(out).toContain('<dl><dt>Term</dt><dd>meaning</dd></dl>');
    expect(out).toContain('<table class="tabular"><tbody><tr><td>a</td><td align="right">b</td></tr><tr><td>c</td><td align="right">d</td></tr></tbody></table>');
    expect(out).toContain('<p><em>e</em> <b>b</b> <i>i</i> <code>t</code> <u>u</u></p>');
    expect(out).toContain('<pre class="verbatim">x &#x3C; y &#x26;&#x26; z </pre>');
    expect(out).toContain('<a class="url" href="https://icpc.global">https://icpc.global</a>');
    expect(out).toContain('<a class="href" href="https://kattis.com">Kattis</a>');
    expect(out).toMatch(/Text<sup class="footnote-ref">\[1\]<\/sup> more\..*<ol class="footnotes"><li>A note\.<\/li><\/ol>$/);
  });

  it("turns TeX's quotes, ties and dashes into typography", () => {
    expect(html("``quoted'' a~b 1--2 yes---no \\ldots")).toBe('“quoted” a\u00a0b 1–2 yes—no …');
    expect(html('50\\% of \\$5 \\& \\{x\\}')).toBe('50% of $5 &#x26; {x}');
  });

  it('drops the sample tables (the app shows the samples itself)', () => {
    const out = html('Before.\n\\sampletable{Sample Input 1}{1.in}{Sample Output 1}{1.ans}\n\\nextsample\n\\sampletableinteractive{Read}{Sample Interaction}{Write}{1.interaction}\nAfter.');
    expect(squeeze(out).trim()).toBe('Before. After.');
  });

  it('keeps a listing as preformatted text', () => {
    expect(html('\\begin{lstlisting}\nint x = {1};\n  y < 2;\n\\end{lstlisting}')).toBe('<pre class="verbatim">int x = {1};\n  y &#x3C; 2;\n</pre>');
  });

  it('inlines \\input and \\include of the same directory only', () => {
    const siblings = { 'part.tex': 'from part, \\input{nested}', 'nested.tex': 'nested', 'other.tex': 'other' };
    expect(squeeze(html('A \\input{part} B \\include{other.tex} C \\input{../part} D \\input{missing} E', siblings))).toBe('A from part, nested B other C D E');
  });

  it('shows a macro or environment it does not know as its text, with a warning, and never fails on one', () => {
    const prepared = prepare('\\fancybox{kept text} and \\weird[opt]{more} \\NP-hard \\begin{strange}inside\\end{strange}');
    expect(squeeze(prepared.render(() => undefined))).toBe(
      '<span class="latex-unknown">\\fancybox</span>kept text and <span class="latex-unknown">\\weird</span>[opt]more <span class="latex-unknown">\\NP</span>-hard<div class="latex-unknown">inside</div>',
    );
    expect(prepared.warnings).toEqual([
      '\\fancybox is not known to the converter: it is shown as its name and its arguments as text',
      '\\weird is not known to the converter: it is shown as its name and its arguments as text',
      '\\NP is not known to the converter: it is shown as its name and its arguments as text',
      'the environment strange is not known to the converter: its content is shown as it is',
    ]);
    // a statement it knows all of has none
    expect(prepare('\\problemname{A} \\textbf{b} $c$').warnings).toEqual([]);
  });

  it('renders the text macros contest statements use', () => {
    const out = squeeze(
      html(
        String.raw`{\bf bold {\it both} still} \textsc{Caps} \verb|a{b| \lstinline|x<y| \url{https://a.b/x--y_%20} 5~km \LaTeX\ rocks\texttrademark\ \"o\c{c} \sout{gone} H\textsubscript{2}O \paragraph{Note} text`,
      ),
    );
    expect(out).toBe(
      '<b>bold <i>both</i> still</b> <span class="textsc">Caps</span> <code>a{b</code> <code>x&#x3C;y</code> ' +
        '<a class="url" href="https://a.b/x--y_%20">https://a.b/x--y_%20</a> 5 km LaTeX rocks™ öç <del>gone</del> H<sub>2</sub>O <strong class="paragraph">Note</strong> text',
    );
    // layout is left out without a warning
    const layout = prepare(String.raw`\vspace{1cm}\centering\clearpage A\hfill B\looseness=-1 \smallskip C`);
    expect(squeeze(layout.render(() => undefined))).toBe('A B C');
    expect(layout.warnings).toEqual([]);
  });

  it('numbers figures for \\caption and \\ref, and keeps a table with its alignments and spans', () => {
    const out = squeeze(
      html(String.raw`\begin{figure}\includegraphics{pic}\caption{One}\label{f:one}\end{figure}
\begin{figure}\includegraphics{plot}\caption{Two}\label{f:two}\end{figure}
See Figures~\ref{f:two} and \ref{f:one}.
\begin{tabular}{*{2}{c}|p{2cm}}\toprule \multicolumn{2}{r}{wide} & x \\ \midrule a & b & c\\ \bottomrule\end{tabular}`),
    );
    expect(out).toContain('<figcaption>Figure 1: One</figcaption>');
    expect(out).toContain('<figcaption>Figure 2: Two</figcaption>');
    // (squeezed: the tie's no-break space is a space here)
    expect(out).toContain('See Figures 2 and 1.');
    expect(out).toContain(
      '<table class="tabular"><tbody><tr><td colspan="2" align="right">wide</td><td>x</td></tr><tr><td align="center">a</td><td align="center">b</td><td>c</td></tr></tbody></table>',
    );
    expect(prepare(String.raw`\ref{nowhere}`).warnings).toEqual(['the reference nowhere names no numbered figure or table: it is shown as ??']);
  });

  it('expands \\def, \\DeclareMathOperator and an optional argument with its default', () => {
    const out = html(String.raw`\def\hello#1{Hi #1!}\hello{you} \DeclareMathOperator{\lcm}{lcm} $\lcm(a,b)$ \newcommand{\opt}[2][dflt]{#1/#2}\opt{x} \opt[y]{z}`);
    expect(out).toMatch(/^Hi you! /);
    expect(out).toContain('<annotation encoding="application/x-tex">\\operatorname{lcm}(a,b)</annotation>');
    expect(out).toMatch(/dflt\/x y\/z$/);
  });

  it('typesets the math environments KaTeX lacks as the nearest it has', () => {
    for (const [tex, shown] of [
      [String.raw`\begin{eqnarray*} a &=& b \end{eqnarray*}`, String.raw`\begin{array}{rcl}a &amp;=&amp; b\end{array}`],
      [String.raw`\begin{multline*} a \\ b \end{multline*}`, String.raw`\begin{gathered}a \\ b\end{gathered}`],
      [String.raw`\begin{align}x &= 1 \label{eq}\end{align}`, String.raw`\begin{align}x&amp;= 1 \end{align}`],
      [String.raw`\ensuremath{x^2}`, 'x^2'],
    ]) {
      const out = html(tex!);
      expect({ tex, annotation: /<annotation encoding="application\/x-tex">(.*?)<\/annotation>/.exec(out)?.[1] }).toEqual({ tex, annotation: shown });
      expect(out).not.toContain('katex-error');
    }
  });

  it('leaves a drawing out with a note, and shows citations as their keys, each with a warning', () => {
    const prepared = prepare(String.raw`Look: \begin{tikzpicture}\draw (0,0) -- (1,1);\end{tikzpicture} as \cite{knuth} says.`);
    expect(squeeze(prepared.render(() => undefined))).toBe('Look:<p class="latex-unknown">[a drawing that cannot be shown here]</p>as [knuth] says.');
    expect(prepared.warnings).toEqual(['the tikzpicture drawing cannot be shown: a note stands in its place', 'citations are shown as their keys: the statement has no bibliography']);
  });

  it('leaves nothing active: script URLs dropped, raw HTML shown as text', () => {
    const out = html('\\href{javascript:alert(1)}{x} \\url{javascript:alert(2)} <script>alert(3)</script> $\\href{javascript:alert(4)}{y}$');
    expect(out).not.toMatch(/<[^>]*(?:href|src)="?\s*javascript:/i);
    expect(out).not.toMatch(/<script/i);
    expect(out).toContain('&#x3C;script>alert(3)&#x3C;/script>');
  });

  it('refuses a statement whose structure cannot be read', () => {
    for (const broken of ['\\begin{itemize}\\item x', 'x \\end{enumerate}', 'a { b', 'a } b', 'cost $x', '\\[ x', 'x \\)']) {
      expect(() => html(broken), broken).toThrow(LatexStatementError);
    }
  });
});
