import type { LanguageChoice } from '@judge/contract';
import { describe, expect, it } from 'vitest';
import { bytes, closedReason, noticesBefore, type Limits } from './checks';
import { loadDraft, lastLanguage, rememberLanguage, saveDraft } from './draft';
import { guessLanguage, pastedFileName } from './languages';
import { shouldNotify } from './notify';

const LANGS: LanguageChoice[] = [
  { id: 'cpp', name: 'C++20', extensions: ['cpp', 'cc'] },
  { id: 'cpp17', name: 'C++17', extensions: ['cpp'] },
  { id: 'python3', name: 'Python 3', extensions: ['.py'] },
];
const open: Limits = { canSubmit: true, allowedLanguages: LANGS, maxUploadBytes: 1000, maxAttachments: 2 };

/** A Storage over a Map, as the browser's localStorage behaves. */
function memoryStore() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k), m };
}

describe('the language of a submission', () => {
  it('is guessed from the first file that is not a header, preferring the one used before among equals', () => {
    expect(guessLanguage(['a.h', 'main.cpp'], LANGS)).toBe('cpp');
    expect(guessLanguage(['main.cpp'], LANGS, 'cpp17')).toBe('cpp17');
    expect(guessLanguage(['main.cpp'], LANGS, 'python3')).toBe('cpp');
    expect(guessLanguage(['sol.PY'], LANGS)).toBe('python3');
    expect(guessLanguage(['notes.txt'], LANGS)).toBeUndefined();
    expect(guessLanguage(['README'], LANGS)).toBeUndefined();
  });

  it('names pasted code by the language', () => {
    expect(pastedFileName(LANGS[2])).toBe('solution.py');
    expect(pastedFileName(undefined)).toBe('solution.txt');
  });
});

describe('refusals before sending', () => {
  it('says why nothing can be sent: limit reached, closed, no language', () => {
    expect(closedReason(open)).toBeNull();
    expect(closedReason({ ...open, canSubmit: false, submissionsLeft: 0 })?.key).toBe('submit.refuse.limit');
    expect(closedReason({ ...open, canSubmit: false })?.key).toBe('submit.refuse.closed');
    expect(closedReason({ ...open, allowedLanguages: [] })?.key).toBe('submit.refuse.noLanguage');
  });

  it('blocks files too large or too many and code too large, and only hints at an unknown extension', () => {
    const none = noticesBefore(open, { files: [], codeBytes: 10, language: 'cpp' });
    expect(none).toEqual([]);
    const big = noticesBefore(open, { files: [{ name: 'a.cpp', size: 1001 }], codeBytes: 0, language: 'cpp' });
    expect(big).toEqual([{ key: 'submit.refuse.fileTooLarge', params: { name: 'a.cpp', size: '1001 B', max: '1000 B' }, blocking: true }]);
    const just = noticesBefore({ ...open, maxUploadBytes: 20_000 }, { files: [{ name: 'b.cpp', size: 20_001 }], codeBytes: 0, language: 'cpp' });
    expect(just[0]?.params).toEqual({ name: 'b.cpp', size: '20001 B', max: '20000 B' });
    const many = noticesBefore(open, { files: ['a.cpp', 'b.cpp', 'c.cpp'].map((name) => ({ name, size: 1 })), codeBytes: 0, language: 'cpp' });
    expect(many.map((n) => n.key)).toEqual(['submit.refuse.tooMany']);
    expect(noticesBefore(open, { files: [], codeBytes: 2000, language: 'cpp' }).map((n) => n.key)).toEqual(['submit.refuse.codeTooLarge']);
    const odd = noticesBefore(open, { files: [{ name: 'sol.txt', size: 5 }], codeBytes: 0, language: 'python3' });
    expect(odd).toEqual([{ key: 'submit.hint.noMatch', params: { allowed: 'C++20, C++17, Python 3' }, blocking: false }]);
    expect(noticesBefore(open, { files: [], codeBytes: 5, language: 'cobol' }).map((n) => n.key)).toEqual(['submit.refuse.pickLanguage']);
  });

  it('writes sizes as people read them', () => {
    expect([bytes(812), bytes(65536), bytes(1572864)]).toEqual(['812 B', '64 KiB', '1.5 MiB']);
  });
});

describe('drafts', () => {
  it('keeps the code and its language per activity and problem, forgets an emptied one, and remembers the last language', () => {
    const s = memoryStore();
    saveDraft(s, 'contest', 'a', { language: 'cpp', code: 'int main(){}' });
    saveDraft(s, 'contest', 'b', { language: 'python3', code: 'print(1)' });
    expect(loadDraft(s, 'contest', 'a')).toEqual({ language: 'cpp', code: 'int main(){}' });
    expect(loadDraft(s, 'other', 'a')).toBeNull();
    saveDraft(s, 'contest', 'a', { language: 'cpp', code: '' });
    expect(loadDraft(s, 'contest', 'a')).toBeNull();
    s.setItem('judge.draft.contest.c', '{not json');
    expect(loadDraft(s, 'contest', 'c')).toBeNull();
    expect(lastLanguage(s)).toBeNull();
    rememberLanguage(s, 'python3');
    expect(lastLanguage(s)).toBe('python3');
  });
});

describe('verdict notifications', () => {
  const done = { state: 'completed' as const, verdict: 'AC' };
  const allowed = { hidden: true, chosen: true, permission: 'granted' as const };
  it('come only for a verdict, in a hidden tab, when chosen and granted', () => {
    expect(shouldNotify(done, allowed)).toBe(true);
    expect(shouldNotify(done, { ...allowed, hidden: false })).toBe(false);
    expect(shouldNotify(done, { ...allowed, chosen: false })).toBe(false);
    expect(shouldNotify(done, { ...allowed, permission: 'default' })).toBe(false);
    expect(shouldNotify(done, { ...allowed, permission: 'unsupported' })).toBe(false);
    expect(shouldNotify({ state: 'running' }, allowed)).toBe(false);
    expect(shouldNotify({ state: 'completed' }, allowed)).toBe(false);
    expect(shouldNotify({ state: 'failed' }, allowed)).toBe(false);
  });
});
