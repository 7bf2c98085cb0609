import { describe, expect, it } from 'vitest';
import type { Column, Participant } from '../src/modules/ranking/model.js';
import { resolve, type CeremonyRow, type CeremonyStep } from '../src/modules/ranking/resolver.js';
import { counted, icpcCell, pointsCell, rank, totals, type Counted, type Entry, type Kind } from '../src/modules/ranking/standings.js';

const START = '2026-11-28T09:00:00.000Z';
const FREEZE = '2026-11-28T13:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString();

type Sub = [user: string, problem: string, minute: number, kind: Kind, score?: number];

function world(subs: Sub[], type: 'icpc' | 'points' = 'icpc') {
  const columns: Column[] = ['A', 'B', 'C'].map((p) => ({ assignmentId: p, maxPoints: type === 'points' ? 100 : null, startMs: Date.parse(START), cutoff: FREEZE, weight: 1 }));
  const users = ['ann', 'bob', 'cid', 'dee', 'eve'];
  const participants: Participant[] = users.map((u, i) => ({ userId: u, userName: u.toUpperCase(), username: u, order: i }));
  const byUser = new Map<string, Map<string, Counted[]>>();
  for (const [u, p, m, kind, score] of subs.sort((x, y) => x[2] - y[2])) {
    const mine = byUser.get(u) ?? new Map<string, Counted[]>();
    byUser.set(u, mine);
    mine.set(p, [...(mine.get(p) ?? []), counted(at(m), kind, score ?? null, score === undefined ? null : 100)]);
  }
  return { type, columns, participants, submissionsOf: (u: string) => byUser.get(u) };
}

/** The final standings as the ranking computes them for a reader who sees through the freeze. */
function finalRows(w: ReturnType<typeof world>) {
  const entries: Entry[] = w.participants.map((p) => {
    const results = w.columns.map((c) =>
      w.type === 'icpc' ? icpcCell(c.assignmentId, w.submissionsOf(p.userId)?.get(c.assignmentId), c.startMs, null) : pointsCell(c.assignmentId, w.submissionsOf(p.userId)?.get(c.assignmentId), c.maxPoints, null),
    );
    return { userId: p.userId, userName: p.userName, order: p.order, t: totals(results, [1, 1, 1]) };
  });
  return rank(entries, w.type);
}

/** What a screen does with the steps: the row at `at` is replaced and moved to `to`. */
function replay(rows: CeremonyRow[], steps: CeremonyStep[]): CeremonyRow[] {
  const out = [...rows];
  for (const s of steps) {
    if (s.kind !== 'reveal') continue;
    expect(out[s.at]!.userId).toBe(s.userId);
    out.splice(s.at, 1);
    out.splice(s.to, 0, s.row);
  }
  return out;
}

// before the freeze: ann 2 solved, bob 1, cid 1 (later), dee 0; eve nothing
const SUBS: Sub[] = [
  ['ann', 'A', 10, 'accepted'],
  ['ann', 'B', 50, 'accepted'],
  ['bob', 'A', 30, 'accepted'],
  ['cid', 'A', 60, 'rejected'],
  ['cid', 'A', 70, 'accepted'],
  ['dee', 'B', 100, 'rejected'],
  // the freeze hides these
  ['dee', 'A', 250, 'accepted'],
  ['dee', 'B', 260, 'rejected'],
  ['dee', 'B', 270, 'accepted'],
  ['dee', 'C', 280, 'accepted'],
  ['bob', 'C', 255, 'rejected'],
  ['cid', 'B', 245, 'accepted'],
  ['ann', 'C', 290, 'rejected'],
];

describe('the award ceremony resolves the frozen standings', () => {
  it('to exactly the final ones, the lowest row with a hidden cell first, its leftmost cell first', () => {
    const w = world([...SUBS]);
    const { rows, steps } = resolve({ ...w, awards: new Map() });
    // frozen: ann, bob, cid, dee, eve
    expect(rows.map((r) => r.userId)).toEqual(['ann', 'bob', 'cid', 'dee', 'eve']);
    const reveals = steps.filter((s) => s.kind === 'reveal');
    // eve has nothing hidden; dee is the lowest with hidden cells: A first, which leaves it in place,
    // then B takes it to second place, so the fourth place (cid, then bob) is worked on next
    expect(reveals[0]).toMatchObject({ userId: 'dee', problemId: 'A', at: 3, to: 3 });
    expect(reveals[1]).toMatchObject({ userId: 'dee', problemId: 'B', at: 3, to: 1 });
    expect(reveals.map((s) => `${s.userId}:${s.problemId}`)).toEqual(['dee:A', 'dee:B', 'cid:B', 'bob:C', 'dee:C', 'ann:C']);
    const final = finalRows(w);
    const replayed = replay(rows, steps);
    expect(replayed.map((r) => r.userId)).toEqual(final.map((r) => r.userId));
    replayed.forEach((r, i) => {
      expect(r.cells).toEqual(final[i]!.cells);
      expect(r.solved).toBe(final[i]!.solved);
      expect(r.penalty).toBe(final[i]!.penalty);
    });
  });

  it('pauses on each finished row that holds an award, after its last reveal', () => {
    const w = world([...SUBS]);
    const awards = new Map([
      ['dee', ['winner', 'gold-medal']],
      ['eve', []],
      ['bob', ['first-to-solve-a']],
    ]);
    const { steps } = resolve({ ...w, awards });
    const kinds = steps.map((s) => (s.kind === 'award' ? `award:${s.userId}:${s.awards.join('+')}` : `${s.userId}:${s.problemId}`));
    // rows finish from the bottom: eve (no award, no pause), bob, cid, ann, and dee on top last
    expect(kinds.filter((k) => k.startsWith('award'))).toEqual(['award:bob:first-to-solve-a', 'award:dee:winner+gold-medal']);
    const deeAward = kinds.indexOf('award:dee:winner+gold-medal');
    expect(deeAward).toBe(kinds.length - 1);
    expect(kinds.indexOf('award:bob:first-to-solve-a')).toBeGreaterThan(kinds.indexOf('bob:C'));
  });

  it('a row with only hidden rejections stays where it is and its cell shows the attempts', () => {
    const w = world([
      ['ann', 'A', 10, 'accepted'],
      ['bob', 'A', 300, 'rejected'],
      ['bob', 'A', 301, 'rejected'],
    ]);
    const { rows, steps } = resolve({ ...w, awards: new Map() });
    expect(rows[1]).toMatchObject({ userId: 'bob' });
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ kind: 'reveal', userId: 'bob', at: 1, to: 1 });
    const s = steps[0] as Extract<CeremonyStep, { kind: 'reveal' }>;
    expect(s.row.cells[0]).toMatchObject({ attempts: 2, solved: false, frozen: 0 });
  });

  it('points contests reveal in score order to the final points standings', () => {
    const w = world(
      [
        ['ann', 'A', 10, 'rejected', 60],
        ['bob', 'A', 20, 'rejected', 40],
        ['bob', 'B', 250, 'accepted', 100],
        ['cid', 'C', 260, 'rejected', 90],
        ['ann', 'A', 270, 'accepted', 100],
      ],
      'points',
    );
    const { rows, steps } = resolve({ ...w, awards: new Map() });
    expect(rows.map((r) => r.points)).toEqual([60, 40, 0, 0, 0]);
    const final = finalRows(w);
    const replayed = replay(rows, steps);
    expect(replayed.map((r) => [r.userId, r.points])).toEqual(final.map((r) => [r.userId, r.points]));
    // ties share a tie key: the screen numbers them alike
    expect(replayed[3]!.tie).toBe(replayed[4]!.tie);
  });
});
