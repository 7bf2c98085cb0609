import type { ParticipantSeries, Question } from '@judge/contract';
import { describe, expect, it } from 'vitest';
import { needsReading, ordered, parseSubject, subjectFields, subjectOptions, subjectValue, unreadCount } from './model';

const q = (over: Partial<Question>): Question => ({
  id: 'q',
  activityId: 'a',
  activitySlug: 'contest',
  kind: 'question',
  topic: 'Is the input sorted?',
  body: 'b',
  createdAt: '2026-11-24T10:00:00.000Z',
  isPublished: false,
  readCount: 0,
  isRead: false,
  ...over,
});
const answer = { body: 'Yes.', authorName: 'Jury', answeredAt: '2026-11-24T10:05:00.000Z' };

describe('what the Questions tab counts as unread', () => {
  it('counts unread announcements and answers, but not an own question still waiting for its answer', () => {
    const list = [q({ id: '1', kind: 'announcement', isPublished: true }), q({ id: '2', answer }), q({ id: '3' }), q({ id: '4', answer, isRead: true })];
    expect(list.map(needsReading)).toEqual([true, true, false, false]);
    expect(unreadCount(list)).toBe(2);
    expect(unreadCount(undefined)).toBe(0);
  });

  it('lists announcements first, each part newest first', () => {
    const list = [q({ id: 'old-q', createdAt: '2026-11-24T09:00:00Z' }), q({ id: 'ann', kind: 'announcement', createdAt: '2026-11-24T08:00:00Z' }), q({ id: 'new-q', createdAt: '2026-11-24T11:00:00Z' })];
    expect(ordered(list).map((x) => x.id)).toEqual(['ann', 'new-q', 'old-q']);
  });
});

describe('what a question is about', () => {
  it('round-trips the subject through the select and sends a problem as its assignment only', () => {
    for (const s of [{ kind: 'activity' }, { kind: 'series', seriesId: 's1' }, { kind: 'problem', problemId: 'p1' }] as const) expect(parseSubject(subjectValue(s))).toEqual(s);
    expect(subjectFields(parseSubject('p:p1'))).toEqual({ problemId: 'p1' });
    expect(subjectFields(parseSubject('s:s1'))).toEqual({ seriesId: 's1' });
    expect(subjectFields(parseSubject(null))).toEqual({});
    expect(parseSubject('x:whatever')).toEqual({ kind: 'activity' });
    expect(parseSubject('p:')).toEqual({ kind: 'activity' });
  });

  it('offers each series and its problems with their letters in the order of the problems page', () => {
    const series = [{ id: 's1', name: 'Main', problems: [{ id: 'p2', name: 'Two', order: 2 }, { id: 'p1', name: 'One', order: 1 }] }] as unknown as ParticipantSeries[];
    expect(subjectOptions(series)).toEqual([
      { value: 's:s1', name: 'Main' },
      { value: 'p:p1', series: 'Main', letter: 'A', name: 'One' },
      { value: 'p:p2', series: 'Main', letter: 'B', name: 'Two' },
    ]);
    expect(subjectOptions(undefined)).toEqual([]);
  });
});
