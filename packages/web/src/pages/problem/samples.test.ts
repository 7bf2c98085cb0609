import { describe, expect, it } from 'vitest';
import { isSampleFile, pairSamples } from './samples';

const file = (name: string) => ({ name, fileId: name, sizeBytes: 3, sha256: name, mimeType: 'text/plain' });

describe('samples', () => {
  it('pairs inputs with their expected outputs by name, in natural order, leaving other files out', () => {
    const files = ['sample/10.ans', 'sample/2.in', 'sample/10.in', 'sample/2.ans', 'notes.txt', 'sample/x/3.interaction', 'statement/pic.png'].map(file);
    const samples = pairSamples(files);
    expect(samples.map((s) => s.name)).toEqual(['2', '10', 'x/3']);
    expect(samples[0]).toMatchObject({ input: { name: 'sample/2.in' }, answer: { name: 'sample/2.ans' } });
    expect(samples[2]).toMatchObject({ interaction: { name: 'sample/x/3.interaction' } });
    expect(samples[2]!.input).toBeUndefined();
  });

  it('tells sample files from attachments', () => {
    expect(isSampleFile('sample/1.in')).toBe(true);
    expect(isSampleFile('data/sample/1.in')).toBe(false);
    expect(isSampleFile('sample/readme.txt')).toBe(false);
  });
});
