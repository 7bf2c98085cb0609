import { describe, expect, it } from 'vitest';
import { narrowed, readFilters, streamQuery, writeFilters } from './filters';

describe('the stream filters in the address', () => {
  it('reads the operation’s own parameter names, and drops values the operation would refuse', () => {
    const f = readFilters(new URLSearchParams('state=queued&verdict=WA&userId=u1&seriesProblemId=p1&excluded=true&submittedFrom=2026-11-27T09:00:00.000Z&page=3'));
    expect(f).toMatchObject({ state: 'queued', verdict: 'WA', userId: 'u1', seriesProblemId: 'p1', excluded: 'true', submittedFrom: '2026-11-27T09:00:00.000Z', page: 3 });
    expect(readFilters(new URLSearchParams('state=judged&excluded=maybe&page=-2'))).toMatchObject({ state: '', excluded: '', page: 1 });
  });

  it('writes back only what narrows, and round-trips', () => {
    const f = readFilters(new URLSearchParams('verdict=AC&search=ann&page=2'));
    expect(writeFilters(f)).toEqual({ verdict: 'AC', search: 'ann', page: '2' });
    expect(writeFilters(readFilters(new URLSearchParams()))).toEqual({});
    expect(narrowed(readFilters(new URLSearchParams('page=4')))).toBe(false);
    expect(narrowed(f)).toBe(true);
  });

  it('makes the query of one activity with its page', () => {
    const f = readFilters(new URLSearchParams('state=running&page=2'));
    expect(streamQuery(f, 'a1', 25)).toEqual({ state: 'running', activityId: 'a1', page: 2, pageSize: 25 });
    expect(streamQuery(readFilters(new URLSearchParams()), 'a1', 25)).toEqual({ activityId: 'a1', page: 1, pageSize: 25 });
  });
});
