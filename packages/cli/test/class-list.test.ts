import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readClassList } from '../src/class-list.js';
import { parseCsv, readCsv, usernameFor } from '@judge/sdk';

// The school office's class list: a German Excel CSV was refused as one unknown
// column, and lmüller and sgroß as not letters.

const dir = mkdtempSync(join(tmpdir(), 'class-list-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

describe('reading a CSV', () => {
  it('reads what German Excel saves: a byte-order mark, semicolons, CRLF, and empty rows as ;;;', () => {
    const t = readCsv('\uFEFFusername;firstName;lastName\r\nlmüller;Lisa;Müller\r\n;;\r\n\r\nsgroß;Sven;"Groß; Jr."\r\n');
    expect(t.separator).toBe(';');
    expect(t.records).toEqual([
      { line: 1, fields: ['username', 'firstName', 'lastName'] },
      { line: 2, fields: ['lmüller', 'Lisa', 'Müller'] },
      { line: 5, fields: ['sgroß', 'Sven', 'Groß; Jr.'] },
    ]);
  });

  it('reads commas, tabs and an Excel sep= line, and numbers a record by the line it starts on', () => {
    expect(parseCsv('a,b\n"x\ny",z\nu,v\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x\ny', 'z'] },
      { line: 4, fields: ['u', 'v'] },
    ]);
    expect(readCsv('a\tb\nx\ty\n').records[1]!.fields).toEqual(['x', 'y']);
    expect(readCsv('sep=;\r\na;b\r\nx,1;y\r\n').records).toEqual([
      { line: 2, fields: ['a', 'b'] },
      { line: 3, fields: ['x,1', 'y'] },
    ]);
  });

  it('names the line of a syntax error', () => {
    expect(() => parseCsv('a,b\nx,y\n"open,z\n')).toThrow(/^line 3: a quoted field is not closed/);
    expect(() => parseCsv('a,b\nx"y,z\n')).toThrow(/^line 2: a quote inside an unquoted field/);
  });
});

describe('usernames of a class list', () => {
  it('spells umlauts and ß out, drops other accents, and leaves a valid name as it is', () => {
    expect(usernameFor('lmüller')).toBe('lmueller');
    expect(usernameFor('sgroß')).toBe('sgross');
    expect(usernameFor('ÖzilM')).toBe('OezilM');
    expect(usernameFor('élodie.dupont')).toBe('elodie.dupont');
    // decomposed, as some systems save it
    expect(usernameFor('lmu\u0308ller')).toBe('lmueller');
    expect(usernameFor('Łukasz Wróbel')).toBe('Lukasz.Wrobel');
    expect(usernameFor("o'neil")).toBe('oneil');
    expect(usernameFor('ann_2')).toBe('ann_2');
    expect(usernameFor('李雷')).toBeUndefined();
  });

  it('reads the whole list with the made usernames, and refuses names that clash once made', () => {
    const list = readClassList(file('class.csv', '\uFEFFusername;firstName;lastName;email\r\nlmüller;Lisa;Müller;lisa@example.com\r\nsgroß;Sven;Groß;\r\n'));
    expect(list.separator).toBe(';');
    expect(list.rows).toEqual([
      { line: 2, username: 'lmueller', usernameInFile: 'lmüller', firstName: 'Lisa', lastName: 'Müller', email: 'lisa@example.com' },
      { line: 3, username: 'sgross', usernameInFile: 'sgroß', firstName: 'Sven', lastName: 'Groß' },
    ]);
    const clash = file('clash.csv', 'username,firstName\nlmüller,Lisa\nlmueller,Lars\n李雷,Li\n');
    expect(() => readClassList(clash)).toThrow(/line 3: username lmueller already appears on line 2 \(made of lmüller\)\n {2}line 4: username "李雷": no username can be made of it/);
  });

  it("reads Excel's plain CSV, which is Windows-1252, and says so", () => {
    const list = readClassList(file('legacy.csv', Buffer.from('username;firstName\r\nkmöller;Käthe\r\n', 'latin1')));
    expect(list.encoding).toBe('windows-1252');
    expect(list.rows).toEqual([{ line: 2, username: 'kmoeller', usernameInFile: 'kmöller', firstName: 'Käthe' }]);
  });
});
