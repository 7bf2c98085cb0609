/**
 * What the two-factor card shows besides the server's answer: the shared key in groups of four
 * (as authenticator apps print it, easier to type by hand), a typed code's digits, and the text
 * file of recovery codes.
 */

/** `JBSWY3DPEHPK3PXP` → `JBSW Y3DP EHPK 3PXP`. */
export function keyInGroups(key: string): string {
  return (key.replace(/\s+/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/** A code as typed ("123 456", "123-456"), with only its digits left. */
export function codeDigits(typed: string): string {
  return typed.replace(/\D/g, '');
}

/** Whether a typed authenticator code has the six digits an app shows. */
export function isSixDigits(typed: string): boolean {
  return /^\d{6}$/.test(codeDigits(typed));
}

/** The text file of recovery codes: where they belong, then one code a line. */
export function recoveryCodesText(codes: readonly string[], heading: string): string {
  return `${heading}\n\n${codes.join('\n')}\n`;
}
