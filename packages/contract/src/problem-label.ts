/** A, B, …, Z, AA, AB, …: the label of the problem at index i of a contest, as contests (and the CLICS API) name them. */
export function problemLabel(i: number): string {
  let n = i;
  let out = '';
  do {
    out = String.fromCharCode(65 + (n % 26)) + out;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return out;
}
