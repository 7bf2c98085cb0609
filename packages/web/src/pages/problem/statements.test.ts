import { describe, expect, it } from 'vitest';
import { pickStatement, statementFormat } from './statements';

const item = (name: string, language?: string, format?: string) => ({ name, fileId: name, sha256: name, sizeBytes: 1, ...(language ? { language } : {}), ...(format ? { format } : {}) });

describe('statements', () => {
  it("takes the format the server names, else the file name's extension", () => {
    expect(statementFormat(item('problem.en.tex', 'en', 'html'))).toBe('html');
    expect(statementFormat(item('statement.md'))).toBe('markdown');
    expect(statementFormat(item('statement.en.HTML'))).toBe('html');
    expect(statementFormat(item('statement.pdf'))).toBe('pdf');
    expect(statementFormat(item('statement.txt'))).toBe('text');
  });

  it("picks the one chosen before, else the browser's language, else English, else the first", () => {
    const list = [item('pl.md', 'pl'), item('en.md', 'en'), item('de.md', 'de')];
    expect(pickStatement(list, 'de', ['pl-PL'])?.language).toBe('de');
    expect(pickStatement(list, 'fr', ['pl-PL', 'en'])?.language).toBe('pl');
    expect(pickStatement(list, null, ['de-AT'])?.language).toBe('de');
    expect(pickStatement(list, null, ['fr'])?.language).toBe('en');
    expect(pickStatement([item('a.md', 'pl'), item('b.md', 'cs')], null, ['fr'])?.language).toBe('pl');
    expect(pickStatement([], null, ['en'])).toBeUndefined();
  });
});
