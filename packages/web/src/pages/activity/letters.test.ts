import { describe, expect, it } from 'vitest';
import { letterOf, problemLetter } from './letters';

describe('problem letters', () => {
  it('names problems A to Z, then AA, AB…', () => {
    expect([0, 1, 25, 26, 27, 51, 52].map(problemLetter)).toEqual(['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA']);
  });

  it('gives a problem the letter of its order in its series', () => {
    const problems = [
      { id: 'c', order: 7 },
      { id: 'a', order: 2 },
      { id: 'b', order: 5 },
    ];
    expect(['a', 'b', 'c', 'x'].map((id) => letterOf(problems, id))).toEqual(['A', 'B', 'C', undefined]);
  });
});
