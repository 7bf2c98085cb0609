import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Series } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, TestJudge } from '../packages/server/test/harness.js';
import { judgectlAs, type CtlSession } from './judgectl-child.js';

// Contest times as a teacher moved them in a real term, each judgectl call a
// child process against a real server: `series open` once kept the old end, so a 180-minute
// contest opened early ran for days; `activities update --end` once left the series' end behind.

const MINUTE = 60_000;
const minutes = (from: string | undefined, to: string | undefined) => (Date.parse(to!) - Date.parse(from!)) / MINUTE;

describe('judgectl and the times of a contest', { timeout: 120_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let ctl: CtlSession;
  /** A contest in Berlin, a few days ahead: 180 minutes, the standings frozen for the last hour (the activity as long, unless told). */
  const contest = async (slug: string, activityMinutes = 180): Promise<Series> => {
    const start = new Date(Date.now() + 4 * 24 * 60 * MINUTE).toISOString();
    const at = (m: number) => new Date(Date.parse(start) + m * MINUTE).toISOString();
    await admin.call(ops.createActivity, { body: { slug, name: slug, type: 'contest@1', rankingType: 'icpc', timeZone: 'Europe/Berlin', startDate: start, endDate: at(activityMinutes) } });
    return admin.call(ops.createSeries, { params: { idOrSlug: slug }, body: { slug: 'main', name: 'Main', startDate: start, endDate: at(180), rankingFreezeAt: at(120) } });
  };
  const stored = async (slug: string) => {
    const a = await admin.call(ops.getManagedActivity, { params: { idOrSlug: slug } });
    const [s] = await admin.call(ops.listManagedSeries, { params: { idOrSlug: slug } });
    return { a, s: s! };
  };

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    ctl = await judgectlAs(j.url, 'admin', ADMIN_PASSWORD);
  });
  afterAll(async () => {
    ctl?.close();
    await j?.stop();
  });

  it('opens a contest early and keeps its 180 minutes and its last frozen hour; the activity follows', async () => {
    await contest('early');
    const before = Date.now();
    const s = await ctl.ok<Series>('series', 'open', 'early', 'main');
    expect(s.isOpen).toBe(true);
    expect(Date.parse(s.startDate!)).toBeGreaterThanOrEqual(before - 1000);
    expect(minutes(s.startDate, s.endDate)).toBe(180);
    expect(minutes(s.rankingFreezeAt, s.endDate)).toBe(60);
    const { a } = await stored('early');
    expect([a.startDate, a.endDate]).toEqual([s.startDate, s.endDate]);
  });

  it('says when the opened contest ends, in the activity\'s time zone', async () => {
    await contest('said');
    const r = await ctl.run('series', 'open', 'said', 'main');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^main is open; it ends at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+0[12]:00, in 180 minutes\./);
    expect(r.stdout).toMatch(/The activity said now runs from .*\+0[12]:00 to .*\+0[12]:00\./);
  });

  it('keeps the end with --keep-end', async () => {
    const planned = await contest('kept');
    const s = await ctl.ok<Series>('series', 'open', 'kept', 'main', '--keep-end');
    expect(s.isOpen).toBe(true);
    expect([s.endDate, s.rankingFreezeAt]).toEqual([planned.endDate, planned.rankingFreezeAt]);
  });

  it('opens late a contest held back by a pause from before its start, keeping its length', async () => {
    const start = new Date(Date.now() - 20 * MINUTE).toISOString();
    const end = new Date(Date.parse(start) + 90 * MINUTE).toISOString();
    await admin.call(ops.createActivity, { body: { slug: 'late', name: 'late', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', startDate: start, endDate: end } });
    const planned = await admin.call(ops.createSeries, { params: { idOrSlug: 'late' }, body: { slug: 'main', name: 'Main', startDate: start, endDate: end } });
    await admin.call(ops.pauseSeries, { params: { seriesId: planned.id }, body: { hideProblems: true } });
    // paused half an hour ago, ten minutes before its start: the clock of this test cannot go back
    const pausedAt = new Date(Date.parse(start) - 10 * MINUTE).toISOString();
    await j.query('UPDATE series SET paused_at = ?, opened_at = NULL WHERE id = ?', pausedAt, planned.id);
    const s = await ctl.ok<Series>('series', 'open', 'late', 'main');
    expect([s.isOpen, s.pausedAt]).toEqual([true, undefined]);
    expect(Date.parse(s.startDate!)).toBeGreaterThan(Date.parse(start));
    expect(minutes(s.startDate, s.endDate)).toBe(90);
  });

  it('moves the series with the activity when `activities update --end` moves the end they share', async () => {
    const s0 = await contest('moved');
    const end = new Date(Date.parse(s0.startDate!) + 300 * MINUTE).toISOString();
    await ctl.ok('activities', 'update', 'moved', '--end', end);
    const { a, s } = await stored('moved');
    expect([a.endDate, s.endDate]).toEqual([end, end]);
  });

  it('refuses `activities update --end` before the end of a series that does not share it, naming the series', async () => {
    // the activity runs an hour past its series
    const s0 = await contest('narrow', 240);
    const early = new Date(Date.parse(s0.startDate!) + 60 * MINUTE).toISOString();
    const said = await ctl.refused('activities', 'update', 'narrow', '--end', early);
    expect(said).toMatch(/the series main ends at \S+\+0[12]:00, after the activity's new end \S+\+0[12]:00.*\(409 activity\.seriesOutside\)/);
    const { s } = await stored('narrow');
    expect(s.endDate).toBe(s0.endDate);
  });

  it('`series update` changes name and dates; a new start carries the end, freeze and reveal along', async () => {
    const s0 = await contest('upd');
    const local = '2026-12-24T09:00';
    const s = await ctl.ok<Series>('series', 'update', 'upd', 'main', '--name', 'Final', '--start', local, '--reveal', '2026-12-24T13:00');
    expect(s.name).toBe('Final');
    // 09:00 in Berlin in winter is 08:00Z
    expect(s.startDate).toBe('2026-12-24T08:00:00.000Z');
    expect(minutes(s.startDate, s.endDate)).toBe(minutes(s0.startDate, s0.endDate));
    expect(minutes(s.rankingFreezeAt, s.endDate)).toBe(60);
    expect(s.rankingRevealAt).toBe('2026-12-24T12:00:00.000Z');
    // the activity's start and end were the series': they follow
    const { a } = await stored('upd');
    expect([a.startDate, a.endDate]).toEqual([s.startDate, s.endDate]);

    const longer = await ctl.ok<Series>('series', 'update', 'upd', 'main', '--duration', '240', '--freeze', 'none');
    expect([minutes(longer.startDate, longer.endDate), longer.rankingFreezeAt]).toEqual([240, undefined]);
    const kept = await ctl.ok<Series>('series', 'update', 'upd', 'main', '--start', '2026-12-24T10:00', '--keep-end');
    expect([kept.startDate, kept.endDate]).toEqual(['2026-12-24T09:00:00.000Z', longer.endDate]);
    const open = await ctl.ok<Series>('series', 'update', 'upd', 'main', '--end', 'none');
    expect(open.endDate).toBeUndefined();
  });

  it('`series update` refuses nothing to change and a bad date; --help names its options', async () => {
    await contest('help');
    expect(await ctl.refused('series', 'update', 'help', 'main')).toMatch(/nothing to change/);
    expect(await ctl.refused('series', 'update', 'help', 'main', '--end', 'soon')).toMatch(/not a date and time/);
    expect(await ctl.refused('series', 'update', 'help', 'main', '--end', '2026-12-24T10:00', '--duration', '60')).toMatch(/cannot be used with/);
    const help = await ctl.run('series', 'update', '--help');
    for (const option of ['--name', '--start', '--end', '--duration', '--keep-end', '--freeze', '--reveal']) expect(help.stdout).toContain(option);
    expect((await ctl.run('series', 'open', '--help')).stdout).toContain('--keep-end');
  });
});
