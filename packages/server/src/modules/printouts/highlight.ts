import hljs from 'highlight.js/lib/common';

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

/**
 * The source as lines of tokens. highlight.js answers HTML of nested spans; its classes are read
 * back here (the innermost one wins), so that the PDF can colour each run.
 */
export function highlightLines(source: string, language: string | undefined): Token[][] {
  const text = source.replace(/\r\n?/g, '\n').replace(/\t/g, '    ');
  if (!language) return text.split('\n').map((l) => [{ text: l, cls: '' }]);
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
