/**
 * The text of a C-family source (Java, Kotlin, Scala, C#) as its compiler reads it, with every
 * comment and string or character literal blanked: a pattern that finds a declaration (Java's
 * `public class Name`) then matches declarations only, never the words "public class names" in
 * the opening comment or a string. Blanked characters become spaces (newlines are kept), so
 * positions and line starts stay where they were.
 */
export function codeOnly(text: string): string {
  const out: string[] = [];
  let i = 0;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) out.push(text[k] === '\n' ? '\n' : ' ');
  };
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === '"' && text.startsWith('"""', i)) {
      // a text block (Java 15+, Kotlin and Scala raw strings)
      const end = text.indexOf('"""', i + 3);
      const stop = end < 0 ? text.length : end + 3;
      blank(i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      let k = i + 1;
      while (k < text.length && text[k] !== c && text[k] !== '\n') k += text[k] === '\\' ? 2 : 1;
      const stop = Math.min(text.length, k + 1);
      blank(i, stop);
      i = stop;
    } else {
      out.push(c);
      i++;
    }
  }
  return out.join('');
}
