import { describe, expect, it } from 'vitest';
import { codeDigits, isSixDigits, keyInGroups, recoveryCodesText } from './two-factor';

describe('the two-factor card', () => {
  it('writes the shared key in groups of four, the last one shorter when the key is', () => {
    expect(keyInGroups('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(keyInGroups('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
    expect(keyInGroups(' AB CD EF ')).toBe('ABCD EF');
    expect(keyInGroups('')).toBe('');
  });

  it('takes the digits of a typed code and knows six of them', () => {
    expect(codeDigits('123 456')).toBe('123456');
    expect(codeDigits(' 123-456 ')).toBe('123456');
    expect(isSixDigits('123 456')).toBe(true);
    expect(isSixDigits('12345')).toBe(false);
    expect(isSixDigits('1234567')).toBe(false);
    expect(isSixDigits('abcdef')).toBe(false);
  });

  it('writes the recovery codes one a line under a heading', () => {
    expect(recoveryCodesText(['AAAA-BBBB', 'CCCC-DDDD'], 'Recovery codes of ann')).toBe('Recovery codes of ann\n\nAAAA-BBBB\nCCCC-DDDD\n');
  });
});
