import type { Extension } from '@codemirror/state';
import type { StreamParser } from '@codemirror/language';

/**
 * Syntax highlighting by language, each grammar its own chunk, fetched when a language that needs
 * it is chosen: the Lezer grammars where CodeMirror has one, the legacy stream modes otherwise.
 * Chosen by the language's file extensions (the judge's language table names them), so a new
 * language with a known extension is highlighted without a change here.
 */
type Loader = () => Promise<Extension>;

const legacy = (load: () => Promise<StreamParser<unknown>>): Loader => async () => {
  const [{ StreamLanguage }, parser] = await Promise.all([import('@codemirror/language'), load()]);
  return StreamLanguage.define(parser);
};

const cpp: Loader = async () => (await import('@codemirror/lang-cpp')).cpp();
const python: Loader = async () => (await import('@codemirror/lang-python')).python();
const javascript: Loader = async () => (await import('@codemirror/lang-javascript')).javascript();
const typescript: Loader = async () => (await import('@codemirror/lang-javascript')).javascript({ typescript: true });
const clike = (name: 'kotlin' | 'csharp' | 'scala') => legacy(async () => (await import('@codemirror/legacy-modes/mode/clike'))[name]);

const BY_EXTENSION: Record<string, Loader> = {
  c: cpp,
  h: cpp,
  cpp,
  cc: cpp,
  cxx: cpp,
  'c++': cpp,
  hpp: cpp,
  py: python,
  java: async () => (await import('@codemirror/lang-java')).java(),
  js: javascript,
  mjs: javascript,
  ts: typescript,
  rs: async () => (await import('@codemirror/lang-rust')).rust(),
  go: async () => (await import('@codemirror/lang-go')).go(),
  php: async () => (await import('@codemirror/lang-php')).php({ plain: false }),
  kt: clike('kotlin'),
  cs: clike('csharp'),
  scala: clike('scala'),
  sc: clike('scala'),
  pas: legacy(async () => (await import('@codemirror/legacy-modes/mode/pascal')).pascal),
  pp: legacy(async () => (await import('@codemirror/legacy-modes/mode/pascal')).pascal),
  hs: legacy(async () => (await import('@codemirror/legacy-modes/mode/haskell')).haskell),
  rb: legacy(async () => (await import('@codemirror/legacy-modes/mode/ruby')).ruby),
  ml: legacy(async () => (await import('@codemirror/legacy-modes/mode/mllike')).oCaml),
  f90: legacy(async () => (await import('@codemirror/legacy-modes/mode/fortran')).fortran),
  f: legacy(async () => (await import('@codemirror/legacy-modes/mode/fortran')).fortran),
  lisp: legacy(async () => (await import('@codemirror/legacy-modes/mode/commonlisp')).commonLisp),
  lua: legacy(async () => (await import('@codemirror/legacy-modes/mode/lua')).lua),
  pl: legacy(async () => (await import('@codemirror/legacy-modes/mode/perl')).perl),
  sh: legacy(async () => (await import('@codemirror/legacy-modes/mode/shell')).shell),
  r: legacy(async () => (await import('@codemirror/legacy-modes/mode/r')).r),
  d: legacy(async () => (await import('@codemirror/legacy-modes/mode/d')).d),
};

// variants the table lists without extensions of their own (pypy3, cpp17) go by their id
const BY_ID_PREFIX: [string, Loader][] = [
  ['cpp', cpp],
  ['c', cpp],
  ['pypy', python],
  ['python', python],
];

/** The grammar of a language, or of a file name's extension; undefined: plain text. */
export function grammarFor(lang: { id: string; extensions: string[] } | undefined, fileName?: string): Loader | undefined {
  const ext = fileName ? /\.([^./]+)$/.exec(fileName)?.[1]?.toLowerCase() : undefined;
  if (ext && BY_EXTENSION[ext]) return BY_EXTENSION[ext];
  if (!lang) return undefined;
  for (const e of lang.extensions) {
    const loader = BY_EXTENSION[e.replace(/^\./, '').toLowerCase()];
    if (loader) return loader;
  }
  return BY_ID_PREFIX.find(([prefix]) => lang.id.toLowerCase().startsWith(prefix))?.[1];
}
