import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/catalogue';
import { isPending, toneOf, verdictMessage, type Judged } from './Verdict';

const words = (j: Judged, lang: 'en' | 'de' = 'en') => {
  const m = verdictMessage(j);
  return translate(lang, m.key, m.params);
};

describe('verdicts in words, tone and state', () => {
  it('says each verdict of the runner in both languages, and an unknown one by its code', () => {
    expect(['AC', 'WA', 'TLE', 'MLE', 'OLE', 'RTE', 'CE', 'JE'].map((v) => words({ state: 'completed', verdict: v }))).toEqual([
      'Accepted',
      'Wrong answer',
      'Time limit exceeded',
      'Memory limit exceeded',
      'Output limit exceeded',
      'Run-time error',
      'Compilation error',
      'Judging error',
    ]);
    expect(words({ state: 'completed', verdict: 'WA' }, 'de')).toBe('Falsche Antwort');
    expect(words({ state: 'completed', verdict: 'XYZ' })).toBe('Verdict XYZ');
  });

  it('tells the test being run while judging goes on, and the state without a verdict', () => {
    expect(words({ state: 'queued' })).toBe('Queued');
    expect(words({ state: 'running' })).toBe('Running');
    expect(words({ state: 'running', progress: { done: 2, total: 5 } })).toBe('Running: test 3 of 5');
    expect(words({ state: 'running', progress: { done: 5, total: 5 } })).toBe('Running: test 5 of 5');
    expect(words({ state: 'running', progress: { done: 0, total: 5 } }, 'de')).toBe('Wird bewertet: Test 1 von 5');
    expect(words({ state: 'failed' })).toBe('Could not be judged');
    expect(words({ state: 'cancelled' })).toBe('Cancelled');
  });

  it('gives accepted, rejected and pending results tones of their own, never only colour (the words go with them)', () => {
    expect([toneOf({ verdict: 'AC' }), toneOf({ verdict: 'WA' }), toneOf({ verdict: 'CE' }), toneOf({ state: 'running' }), toneOf({ state: 'failed' })]).toEqual(['ok', 'bad', 'warn', 'pending', 'neutral']);
    expect([isPending({ state: 'queued' }), isPending({ state: 'running' }), isPending({ state: 'completed', verdict: 'AC' })]).toEqual([true, true, false]);
  });
});
