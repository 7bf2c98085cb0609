import { describe, expect, it } from 'vitest';
import { parseCsv, readClassList, readCsv, usernameFor } from '../src/index.js';

// The school office's class list, read the same by judgectl and the web app: a German Excel CSV
// was once refused as one unknown column, and lmüller and sgroß as not letters.

const bytes = (s: string) => new TextEncoder().encode(s);

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

});

describe('a class list as bytes', () => {
  it('answers the accounts, or why it was refused, without throwing', () => {
    const ok = readClassList(bytes('\uFEFFusername;firstName;lastName\r\nzoé.dubois;Zoé;Dubois\r\n'));
    expect(ok).toEqual({ ok: true, list: { separator: ';', encoding: 'utf-8', rows: [{ line: 2, username: 'zoe.dubois', usernameInFile: 'zoé.dubois', firstName: 'Zoé', lastName: 'Dubois' }] } });
    expect(readClassList(bytes(''))).toEqual({ ok: false, problem: { kind: 'empty' } });
    expect(readClassList(bytes('username,firstName\r\n'))).toEqual({ ok: false, problem: { kind: 'headerOnly' } });
    expect(readClassList(bytes('login,firstName\nx,y\n'))).toEqual({ ok: false, problem: { kind: 'fatal', message: 'line 1: unknown column "login" (the columns are username, firstName, lastName, email)' } });
    expect(readClassList(bytes('username\n"open\n'))).toMatchObject({ ok: false, problem: { kind: 'fatal', message: expect.stringMatching(/^line 2: a quoted field is not closed/) } });
    expect(readClassList(bytes('username,email\nann,a@example.com\nbob\nann2,a@example.com\n'))).toEqual({
      ok: false,
      problem: { kind: 'faults', faults: ['line 3: 1 field, the header has 2', 'line 4: email a@example.com already appears on line 2'] },
    });
  });
});
