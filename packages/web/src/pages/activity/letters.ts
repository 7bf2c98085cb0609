/** A, B, … Z, AA, AB, …: the letter of the problem at index i of its series, as contests name them. */
export function problemLetter(i: number): string {
  let n = i;
  let out = '';
  do {
    out = String.fromCharCode(65 + (n % 26)) + out;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return out;
}

/** The letter of a problem by its order among its series' problems. */
export function letterOf<P extends { id: string; order: number }>(problems: P[], id: string): string | undefined {
  const sorted = [...problems].sort((a, b) => a.order - b.order);
  const i = sorted.findIndex((p) => p.id === id);
  return i < 0 ? undefined : problemLetter(i);
}
