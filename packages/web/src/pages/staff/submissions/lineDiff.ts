import { diffLines } from 'diff';

export type DiffLine = { kind: 'same' | 'added' | 'removed'; text: string };

/** The lines of `before` and `after` as a line diff: kept, removed and added, in reading order. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const out: DiffLine[] = [];
  for (const part of diffLines(before, after)) {
    const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
    const lines = part.value.split('\n');
    // a part that ends with a line break leaves an empty string after it, which is no line
    if (lines[lines.length - 1] === '') lines.pop();
    for (const text of lines) out.push({ kind, text });
  }
  return out;
}

/** Kept lines more than `context` away from any change fold into one gap marker (null). */
export function withContext(lines: DiffLine[], context = 3): (DiffLine | null)[] {
  const near = lines.map(() => false);
  lines.forEach((l, i) => {
    if (l.kind === 'same') return;
    for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) near[j] = true;
  });
  const out: (DiffLine | null)[] = [];
  lines.forEach((l, i) => {
    if (near[i]) out.push(l);
    else if (out[out.length - 1] !== null) out.push(null);
  });
  return out;
}
