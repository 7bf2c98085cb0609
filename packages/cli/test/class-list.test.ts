import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readClassList } from '../src/class-list.js';

// A class list file as judgectl reads it: the reading is @judge/sdk's (tested there), the file and
// the refusals naming it are judgectl's.

const dir = mkdtempSync(join(tmpdir(), 'class-list-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

describe('a class list file', () => {
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
