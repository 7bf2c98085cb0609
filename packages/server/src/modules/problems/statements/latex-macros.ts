/**
 * What the converter knows of LaTeX's vocabulary, as data: the argument signatures the parser needs
 * (so that a macro's arguments are its own and not text), the characters and symbols a macro
 * stands for, the text styles, and what is layout to leave out. The set is problemtools' (its
 * problemset class and plasTeX templates: \problemname, \illustration, the sample tables, the
 * Input/Output environments) and the text macros contest statements use; anything else is shown as
 * its text with a warning (latex-html.ts).
 */

/** Argument signatures in xparse notation: m mandatory, o optional, s a star. */
export const MACRO_SIGNATURES: Record<string, string> = {
  // problemtools and BAPCtools
  problemname: 'o m',
  problemyamlname: '',
  illustration: 'm m m',
  sampletable: 'm m m m',
  sampletableinteractive: 'm m m m',
  nextsample: '',
  remainingsamples: '',
  lstinputlisting: 'o m',
  // text styles
  emph: 'm',
  textit: 'm',
  textsl: 'm',
  textbf: 'm',
  texttt: 'm',
  textsc: 'm',
  textsf: 'm',
  textrm: 'm',
  textup: 'm',
  textmd: 'm',
  textnormal: 'm',
  underline: 'm',
  uline: 'm',
  sout: 'm',
  textsuperscript: 'm',
  textsubscript: 'm',
  mbox: 'm',
  hbox: 'm',
  fbox: 'm',
  text: 'm',
  makebox: 'o o m',
  framebox: 'o o m',
  parbox: 'o o o m m',
  raisebox: 'm o o m',
  textcolor: 'o m m',
  colorbox: 'o m m',
  ensuremath: 'm',
  // structure
  section: 's o m',
  subsection: 's o m',
  subsubsection: 's o m',
  paragraph: 's o m',
  subparagraph: 's o m',
  chapter: 's o m',
  part: 's o m',
  footnote: 'o m',
  thanks: 'm',
  caption: 'o m',
  label: 'm',
  ref: 's m',
  autoref: 's m',
  cref: 's m',
  Cref: 's m',
  eqref: 'm',
  cite: 'o m',
  url: 'm',
  nolinkurl: 'm',
  href: 'o m m',
  includegraphics: 's o o m',
  multicolumn: 'm m m',
  multirow: 'o m o m m',
  // layout, left out
  vspace: 's m',
  hspace: 's m',
  addvspace: 'm',
  linebreak: 'o',
  pagebreak: 'o',
  nopagebreak: 'o',
  rule: 'o m m',
  phantom: 'm',
  hphantom: 'm',
  vphantom: 'm',
  usepackage: 'o m',
  RequirePackage: 'o m',
  documentclass: 'o m',
  setlength: 'm m',
  addtolength: 'm m',
  newlength: 'm',
  setcounter: 'm m',
  addtocounter: 'm m',
  stepcounter: 'm',
  newcounter: 'm o',
  newsavebox: 'm',
  sbox: 'm m',
  usebox: 'm',
  newenvironment: 's m o o m m',
  renewenvironment: 's m o o m m',
  newtheorem: 's m o m o',
  newcolumntype: 'm o m',
  DeclareMathOperator: 's m m',
  lstset: 'm',
  lstdefinestyle: 'm m',
  graphicspath: 'm',
  captionsetup: 'o m',
  pagestyle: 'm',
  thispagestyle: 'm',
  color: 'o m',
  definecolor: 'm m m',
  fontsize: 'm m',
  fontencoding: 'm',
  ExecuteOptions: 'm',
};

/** Environments' own arguments (a tabular's column spec, a minipage's width), so that they are not text. */
export const ENVIRONMENT_SIGNATURES: Record<string, string> = {
  tabular: 'o m',
  'tabular*': 'm o m',
  tabularx: 'm o m',
  longtable: 'o m',
  array: 'o m',
  minipage: 'o o o m',
  wrapfigure: 'o m o m',
  wraptable: 'o m o m',
  figure: 'o',
  'figure*': 'o',
  table: 'o',
  'table*': 'o',
  subfigure: 'o m',
  multicols: 'm o o',
};

/** Macros that stand for a character or a few: accents and dashes the ligature pass left, symbols, escapes. */
export const SYMBOLS: Record<string, string> = {
  '%': '%', $: '$', '&': '&', '#': '#', _: '_', '{': '{', '}': '}',
  ' ': ' ', '\n': ' ', '\t': ' ', ',': '\u2009', ';': ' ', ':': ' ', '!': '', '@': '', '/': '', '-': '\u00ad',
  quad: '\u2003', qquad: '\u2003\u2003', enspace: '\u2002', thinspace: '\u2009', space: ' ',
  ldots: '…', dots: '…', textellipsis: '…',
  LaTeX: 'LaTeX', TeX: 'TeX', LaTeXe: 'LaTeX2ε',
  textbackslash: '\\', textasciitilde: '~', textasciicircum: '^', textless: '<', textgreater: '>', textbar: '|',
  textbullet: '•', textperiodcentered: '·', textendash: '–', textemdash: '—',
  textquoteleft: '‘', textquoteright: '’', textquotedblleft: '“', textquotedblright: '”', textquotedbl: '"',
  texttrademark: '™', textregistered: '®', textcopyright: '©', copyright: '©', textdegree: '°',
  textpm: '±', texttimes: '×', textdiv: '÷', textmu: 'µ', textonehalf: '½', euro: '€', pounds: '£',
  textdollar: '$', textunderscore: '_', textbraceleft: '{', textbraceright: '}',
  S: '§', P: '¶', textsection: '§', textparagraph: '¶', dag: '†', ddag: '‡', checkmark: '✓', slash: '/',
  ss: 'ß', o: 'ø', O: 'Ø', ae: 'æ', AE: 'Æ', oe: 'œ', OE: 'Œ', aa: 'å', AA: 'Å', l: 'ł', L: 'Ł', i: 'ı', j: 'ȷ',
};

/** Accent macros: the ligature pass puts most on their letter; one it could not is left out and the letter stays. */
export const ACCENTS = new Set(["'", '`', '^', '"', '~', '=', '.', 'u', 'v', 'H', 'c', 'd', 'b', 'r', 'k', 't']);

/** One-argument text styles: the HTML element and class each becomes. */
export const STYLES: Record<string, { tag: string; className?: string }> = {
  emph: { tag: 'em' },
  textit: { tag: 'i' },
  textsl: { tag: 'i' },
  textbf: { tag: 'b' },
  texttt: { tag: 'code' },
  textsc: { tag: 'span', className: 'textsc' },
  underline: { tag: 'u' },
  uline: { tag: 'u' },
  sout: { tag: 'del' },
  textsuperscript: { tag: 'sup' },
  textsubscript: { tag: 'sub' },
};

/** Macros whose last argument is shown as it is, without a style (boxes, colours, font families). */
export const PLAIN = new Set(['textsf', 'textrm', 'textup', 'textmd', 'textnormal', 'mbox', 'hbox', 'fbox', 'text', 'makebox', 'framebox', 'parbox', 'raisebox', 'textcolor', 'colorbox', 'multirow']);

/** Font declarations (`{\bf bold}`, `\itshape`): the rest of their group in the style; an empty tag only ends the style. */
export const SWITCHES: Record<string, { tag: string; className?: string } | null> = {
  bf: { tag: 'b' },
  bfseries: { tag: 'b' },
  em: { tag: 'em' },
  it: { tag: 'i' },
  itshape: { tag: 'i' },
  sl: { tag: 'i' },
  slshape: { tag: 'i' },
  tt: { tag: 'code' },
  ttfamily: { tag: 'code' },
  sc: { tag: 'span', className: 'textsc' },
  scshape: { tag: 'span', className: 'textsc' },
  rm: null, rmfamily: null, sf: null, sffamily: null, normalfont: null, upshape: null, mdseries: null,
  tiny: null, scriptsize: null, footnotesize: null, small: null, normalsize: null,
  large: null, Large: null, LARGE: null, huge: null, Huge: null,
};

/** Layout and set-up: left out without a word (the app lays the statement out; the samples are shown beside it). */
export const DROPPED = new Set([
  'sampletable', 'sampletableinteractive', 'nextsample', 'remainingsamples',
  'centering', 'raggedright', 'raggedleft', 'noindent', 'indent', 'newpage', 'clearpage', 'cleardoublepage',
  'pagebreak', 'nopagebreak', 'vfill', 'hfill', 'hfil', 'vfil', 'hrulefill', 'dotfill', 'smallskip', 'medskip', 'bigskip',
  'vspace', 'hspace', 'addvspace', 'label', 'tightlist', 'rule', 'hrule', 'phantom', 'hphantom', 'vphantom',
  'protect', 'relax', 'null', 'leavevmode', 'makeatletter', 'makeatother', 'maketitle', 'sloppy', 'fussy', 'frenchspacing',
  'usepackage', 'RequirePackage', 'documentclass', 'setlength', 'addtolength', 'newlength', 'setcounter', 'addtocounter',
  'stepcounter', 'newcounter', 'newsavebox', 'sbox', 'usebox', 'newenvironment', 'renewenvironment', 'newtheorem',
  'newcolumntype', 'lstset', 'lstdefinestyle', 'graphicspath', 'captionsetup', 'pagestyle', 'thispagestyle', 'color',
  'definecolor', 'fontsize', 'fontencoding', 'selectfont', 'ExecuteOptions', 'looseness', 'arraystretch', 'arraybackslash',
  'baselineskip', 'parindent', 'parskip', 'tabcolsep', 'linewidth', 'textwidth', 'hline', 'toprule', 'midrule', 'bottomrule',
  'cline', 'cmidrule', 'addlinespace', 'endhead', 'endfirsthead', 'endfoot', 'endlastfoot', 'noalign',
]);

/** TeX parameters set as `\looseness=-1`: the value after them goes with them. */
export const ASSIGNED = new Set(['looseness', 'baselineskip', 'parindent', 'parskip', 'tabcolsep', 'arraystretch']);

/** Section headings and the HTML heading each becomes (the app demotes them below its own title). */
export const HEADINGS: Record<string, string> = { part: 'h2', chapter: 'h2', section: 'h2', subsection: 'h3', subsubsection: 'h4' };

/** The problemtools environments that open a section of the statement. */
export const SECTION_ENVIRONMENTS: Record<string, string> = { Input: 'Input', Output: 'Output', Interaction: 'Interaction' };

/** Floats that hold a figure; `table` floats are numbered on their own. */
export const FIGURES = new Set(['figure', 'figure*', 'wrapfigure', 'subfigure', 'floatingfigure']);
export const TABLES = new Set(['table', 'table*', 'wraptable']);

/** Drawings the converter cannot draw: left out with a word in their place. */
export const PICTURES = new Set(['tikzpicture', 'picture', 'pspicture', 'axis', 'tikzcd', 'circuitikz', 'asy']);

/** Environments that only group their content (or lay it out): their content is shown as it is. */
export const TRANSPARENT = new Set([
  'document', 'center', 'flushleft', 'flushright', 'minipage', 'samepage', 'afterSample', 'multicols', 'small', 'footnotesize',
  'abstract', 'raggedright', 'trivlist', 'adjustbox', 'spacing', 'singlespace',
]);

/** Math environments KaTeX typesets as they are; the others are rewritten (mathEnvironment in latex-html.ts). */
export const KATEX_ENVIRONMENTS = new Set(['equation', 'equation*', 'align', 'align*', 'gather', 'gather*', 'alignat', 'alignat*', 'split', 'aligned', 'gathered', 'cases', 'array', 'matrix', 'pmatrix', 'bmatrix']);
