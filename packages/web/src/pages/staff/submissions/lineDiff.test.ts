import { describe, expect, it } from 'vitest';
import { lineDiff, withContext } from './lineDiff';

describe('line diff of two sources', () => {
  it('marks removed and added lines in reading order and keeps the rest', () => {
    const before = 'a, b = map(int, input().split())\nprint(a + b + 1)\n';
    const after = 'a, b = map(int, input().split())\nprint(a + b)\n';
    expect(lineDiff(before, after)).toEqual([
      { kind: 'same', text: 'a, b = map(int, input().split())' },
      { kind: 'removed', text: 'print(a + b + 1)' },
      { kind: 'added', text: 'print(a + b)' },
    ]);
  });

  it('finds no change in the same text, and every line added against nothing', () => {
    expect(lineDiff('x\ny\n', 'x\ny\n').every((l) => l.kind === 'same')).toBe(true);
    expect(lineDiff('', 'x\ny\n')).toEqual([
      { kind: 'added', text: 'x' },
      { kind: 'added', text: 'y' },
    ]);
  });

  it('folds unchanged lines far from a change into one gap', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = before.replace('line 10\n', 'line ten\n');
    const shown = withContext(lineDiff(before, after), 2);
    expect(shown).toEqual([
      null,
      { kind: 'same', text: 'line 8' },
      { kind: 'same', text: 'line 9' },
      { kind: 'removed', text: 'line 10' },
      { kind: 'added', text: 'line ten' },
      { kind: 'same', text: 'line 11' },
      { kind: 'same', text: 'line 12' },
      null,
    ]);
  });
});
