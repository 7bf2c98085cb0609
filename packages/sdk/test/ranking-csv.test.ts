import type { Ranking } from '@judge/contract';
import { describe, expect, it } from 'vitest';
import { CSV_BOM, asCsvText, rankingCsv } from '../src/ranking-csv.js';

const cell = (problemId: string, c: Partial<Ranking['rows'][number]['cells'][number]> = {}) => ({ problemId, attempts: 0, solved: false, pending: 0, frozen: 0, ...c });

const icpc: Ranking = {
  rankingType: 'icpc',
  frozen: false,
  problems: [{ id: 'p1', slug: 'a', name: 'A', seriesId: 's' }],
  rows: [
    { rank: 1, userId: 'u1', userName: 'Zoë Ångström', username: 'zoe', solved: 1, penalty: 45, cells: [cell('p1', { attempts: 2, solved: true, penalty: 45 })] },
    { rank: 2, userId: 'u2', userName: '3/4', username: '1-2', solved: 0, penalty: 0, cells: [cell('p1', { attempts: 1 })] },
    { rank: 2, userId: 'u3', userName: '=HYPERLINK("x")', solved: 0, penalty: 0, cells: [cell('p1')] },
  ],
};

describe('the standings as CSV', () => {
  it('starts with a byte-order mark, names the username beside the name, and writes numbers per problem', () => {
    const lines = rankingCsv(icpc).split('\r\n');
    expect(lines[0]).toBe(`${CSV_BOM}rank,username,name,userId,solved,penalty,a solved,a tries,a minute`);
    expect(lines[1]).toBe('1,zoe,Zoë Ångström,u1,1,45,1,2,25');
    expect(lines[4]).toBe('');
  });

  it('keeps as text what a spreadsheet would turn into a date, a number or a formula', () => {
    const lines = rankingCsv(icpc, { usernames: new Map([['u3', '007']]) }).split('\r\n');
    expect(lines[2]).toBe("2,'1-2,'3/4,u2,0,0,0,1,");
    expect(lines[3]).toBe(`2,'007,"'=HYPERLINK(""x"")",u3,0,0,0,0,`);
    for (const v of ['1-2', '3/4', '12:30', '1.2', '2024', 'Mar 5', 'may-12', '-1', '+49', '@x', '=1']) expect(asCsvText(v), v).toBe(`'${v}`);
    for (const v of ['Ann Lee', 'ann', 'a1-2', 'March', 'Zoë']) expect(asCsvText(v), v).toBe(v);
  });

  it('writes points with a decimal comma for a semicolon-separated file (a spreadsheet set to German)', () => {
    const points: Ranking = {
      rankingType: 'points',
      frozen: false,
      problems: [{ id: 'p1', slug: 'a', name: 'A', seriesId: 's', maxPoints: 10 }],
      rows: [{ rank: 1, userId: 'u1', userName: 'Ann', solved: 0, points: 12.5, cells: [cell('p1', { attempts: 1, points: 12.5 })] }],
    };
    expect(rankingCsv(points, { separator: ';' }).split('\r\n')[1]).toBe('1;;Ann;u1;12,5;12,5;1');
    expect(rankingCsv(points).split('\r\n')[1]).toBe('1,,Ann,u1,12.5,12.5,1');
  });
});
