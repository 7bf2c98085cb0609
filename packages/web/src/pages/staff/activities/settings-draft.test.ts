import type { Activity } from '@judge/contract';
import { describe, expect, it } from 'vitest';
import { bodyOf, draftOf, parseProps } from './settings-draft';

const stored: Activity = {
  id: 'a1',
  slug: 'cup',
  name: 'Cup',
  type: 'contest@1',
  rankingType: 'icpc',
  timeZone: 'Europe/Berlin',
  startDate: '2026-12-01T08:00:00Z',
  endDate: '2026-12-01T13:00:00Z',
  modules: { questions: true, printouts: false, sampleRuns: true },
  documents: [],
  scoreVisibility: 'everyone',
  attachmentVisibility: [{ name: 'log', visibility: 'participant' }],
  joinPolicy: 'open',
  unlisted: false,
  hideEndedSeriesProblems: false,
  showGroupMembers: false,
  publicScoreboard: false,
  maxUploadBytes: 65536,
  maxAttachments: 1,
  seriesCount: 1,
  problemCount: 2,
  participantCount: 0,
  runnerTags: [],
  matchingRunners: 1,
  awardRules: { gold: 4, silver: 4, bronze: 4, extraBronze: 0 },
};

describe('the settings form', () => {
  it('sends nothing but the slug when nothing changed', () => {
    expect(bodyOf(stored, draftOf(stored))).toEqual({ slug: 'cup' });
  });

  it('sends exactly what changed: a name, the end in the activity zone, a module, a switch, a cap and a cleared password', () => {
    const d = { ...draftOf(stored), name: 'Winter cup', endDate: '2026-12-01T15:30', printouts: true, maxSubmissionsPerProblem: '20', joinPolicy: 'password' as const };
    d.show = { ...d.show, details: true };
    expect(bodyOf(stored, d)).toEqual({
      slug: 'cup',
      name: 'Winter cup',
      endDate: '2026-12-01T15:30',
      joinPolicy: 'password',
      modules: { printouts: true },
      attachmentVisibility: [
        { name: 'log', visibility: 'participant' },
        { name: 'details', visibility: 'participant' },
      ],
      maxSubmissionsPerProblem: 20,
    });
    expect(bodyOf({ ...stored, joinPassword: 'x' }, { ...draftOf({ ...stored, joinPassword: 'x' }), joinPassword: '' })).toEqual({ slug: 'cup', joinPassword: null });
  });

  it('passes a value that is no number on as typed, for the server to say what is wrong with it', () => {
    expect(bodyOf(stored, { ...draftOf(stored), maxAttachments: 'lots' }).maxAttachments).toBe('lots');
  });

  it('reads the props as a JSON object, nothing as clearing them, and refuses anything else', () => {
    expect(parseProps('{"color":"#369"}')).toEqual({ value: { color: '#369' } });
    expect(parseProps('  ')).toEqual({ value: null });
    expect(parseProps('[1]')).toEqual({ error: 'json' });
    expect(parseProps('{oops')).toEqual({ error: 'json' });
  });
});
