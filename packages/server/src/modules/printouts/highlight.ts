import hljs from 'highlight.js/lib/common';
import { normalised } from './layout.js';

/** A run of text of one highlighting class (`''`: plain). */
export interface Token {
  text: string;
  cls: string;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };
const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (e) => ENTITIES[e] ?? e);

/** The highlight.js language a file name's extension names, if it knows one. */
export function languageOf(fileName: string, hint?: string): string | undefined {
  for (const name of [hint, fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase() : undefined]) {
    if (name && hljs.getLanguage(name)) return name;
  }
  return undefined;
}

/** highlight.js's time grows faster than its input on some text (a long identifier, runs of brackets): it is given pieces this small. */
const CHUNK = 2048;
/** A longer line is printed without colours. */
const LINE_MAX = 256;
/** Past this much highlighting, the rest of a printout is printed without colours. */
const BUDGET_MS = 2000;

const plain = (line: string): Token[] => [{ text: line, cls: '' }];

/** One piece's lines of tokens. highlight.js answers HTML of nested spans; its classes are read back here (the innermost one wins). */
function highlightPiece(text: string, language: string): Token[][] {
  const html = hljs.highlight(text, { language, ignoreIllegals: true }).value;
  const lines: Token[][] = [[]];
  const stack: string[] = [];
  for (const part of html.split(/(<span class="[^"]*">|<\/span>)/)) {
    if (part.startsWith('<span')) stack.push(/class="([^"]*)"/.exec(part)![1]!.split(' ')[0]!.replace(/^hljs-/, ''));
    else if (part === '</span>') stack.pop();
    else if (part) {
      const cls = stack[stack.length - 1] ?? '';
      unescape(part)
        .split('\n')
        .forEach((piece, i) => {
          if (i > 0) lines.push([]);
          if (piece) lines[lines.length - 1]!.push({ text: piece, cls });
        });
    }
  }
  return lines;
}

/**
 * The source as lines of tokens, so that the PDF can colour each run. To keep the time linear in
 * the source, it is highlighted in pieces of at most CHUNK characters (cut after a blank line where
 * there is one, so a piece mostly holds whole functions), lines longer than LINE_MAX stay plain, and
 * after BUDGET_MS the rest is plain: a printout is always made, at worst partly without colours.
 */
export function highlightLines(source: string, language: string | undefined): Token[][] {
  const lines = normalised(source).split('\n');
  if (!language) return lines.map(plain);
  const out: Token[][] = [];
  const deadline = performance.now() + BUDGET_MS;
  for (let i = 0; i < lines.length; ) {
    if (lines[i]!.length > LINE_MAX || performance.now() > deadline) {
      out.push(plain(lines[i++]!));
      continue;
    }
    let j = i;
    let size = 0;
    let cut = -1;
    for (; j < lines.length && lines[j]!.length <= LINE_MAX && size + lines[j]!.length < CHUNK; j++) {
      size += lines[j]!.length + 1;
      if (j > i && !lines[j]!.trim()) cut = j + 1;
    }
    if (j < lines.length && cut > i) j = cut;
    out.push(...highlightPiece(lines.slice(i, j).join('\n'), language));
    i = j;
  }
  return out;
}
