import { problemLabel } from '@judge/sdk/browser';

/** A, B, … Z, AA, AB, …: the letter of the problem at index i of its series, as contests name them. */
export const problemLetter = problemLabel;

/** The letter of a problem by its order among its series' problems. */
export function letterOf<P extends { id: string; order: number }>(problems: P[], id: string): string | undefined {
  const sorted = [...problems].sort((a, b) => a.order - b.order);
  const i = sorted.findIndex((p) => p.id === id);
  return i < 0 ? undefined : problemLetter(i);
}
