import { readFileSync } from 'node:fs';

/**
 * The commands of one README section, as an administrator would type them: every line of its
 * `sh` blocks, continuation lines joined, comments and blank lines dropped. Tests run them so the
 * README cannot drift from what the programs do.
 */
export interface ReadmeCommand {
  /** The command as written in the README (continuations joined). */
  text: string;
  /** The block it is in, counted from 0, and its line in README.md (1-based), for messages. */
  block: number;
  line: number;
}

export function sectionCommands(readmePath: string, heading: string): ReadmeCommand[] {
  const lines = readFileSync(readmePath, 'utf8').split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  if (start < 0) throw new Error(`README has no section "${heading}"`);
  const level = /^#+/.exec(heading)![0].length;
  const commands: ReadmeCommand[] = [];
  let block = -1;
  let inBlock = false;
  let pending: { text: string; line: number } | undefined;
  for (let i = start + 1; i < lines.length; i++) {
    const l = lines[i]!;
    const h = /^(#+) /.exec(l);
    if (!inBlock && h && h[1]!.length <= level) break;
    if (/^```/.test(l)) {
      inBlock = !inBlock && /^```sh\s*$/.test(l);
      if (inBlock) block++;
      continue;
    }
    if (!inBlock) continue;
    const code = stripComment(l).trimEnd();
    if (!pending && !code.trim()) continue;
    const joined = pending ? `${pending.text} ${code.trim()}` : code.trim();
    const line = pending?.line ?? i + 1;
    if (joined.endsWith('\\')) pending = { text: joined.slice(0, -1).trimEnd(), line };
    else {
      pending = undefined;
      commands.push({ text: joined, block, line });
    }
  }
  return commands;
}

/** A line without its trailing `# comment` (a `#` outside quotes that starts a word). */
function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

/** The `<name>` placeholders a command leaves for the reader to fill in. */
export function placeholders(text: string): string[] {
  return [...text.matchAll(/<([a-z][a-z0-9-]*)>/g)].map((m) => m[1]!);
}
