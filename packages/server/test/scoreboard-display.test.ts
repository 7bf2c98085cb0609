import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Scoreboard as ScoreboardSchema, ops, type Scoreboard } from '@judge/contract';
import { refusedWith, sendJson } from './expect.js';
import { at } from './series-fixtures.js';
import { eventually, openFeed } from './support/feed.js';
import { codeForm } from './support/forms.js';
import { act, admin, alice, bob, j, manager, open, runner, submit, task, useSubmissionWorld, w } from './support/submissions.js';

/**
 * Display links and the scoreboard feeds (decisions §23): staff with activity:update make, read,
 * rotate and remove an activity's display secret; with it, a screen nobody signs in on reads the
 * public board (whether or not the public scoreboard is on) and follows a feed that says only
 * "changed". Real HTTP, real judging through a protocol runner.
 */

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

describe('display links and scoreboard feeds', () => {
  // request lines are logged at info: the test reads the log to see that no secret is in it
  useSubmissionWorld({ logLevel: 'info' });

  const anonymous = (path: string) => sendJson(j.url, 'GET', path, undefined);
  const link = (c = manager.c) => c.call(ops.getDisplayLink, { params: { idOrSlug: act.slug } });

  it('staff read, rotate and remove the link; participants, strangers and the signed-out may not', async () => {
    expect(await link()).toEqual({});
    const { token } = await manager.c.call(ops.rotateDisplayLink, { params: { idOrSlug: act.slug } });
    expect(token).toMatch(TOKEN);
    expect(await link()).toEqual({ token });
    // a participant holds no activity:update; an account outside the activity sees nothing of it
    await refusedWith(link(alice.c), 403, 'forbidden');
    await refusedWith(alice.c.call(ops.rotateDisplayLink, { params: { idOrSlug: act.slug } }), 403, 'forbidden');
    await refusedWith(alice.c.call(ops.removeDisplayLink, { params: { idOrSlug: act.slug } }), 403, 'forbidden');
    const stranger = await w.party('stranger');
    const closed = await w.activity();
    await refusedWith(stranger.c.call(ops.rotateDisplayLink, { params: { idOrSlug: closed.slug } }), 404, 'not_found');
    for (const method of ['GET', 'POST', 'DELETE']) {
      const r = await sendJson(j.url, method, `/activities/${act.slug}/display-link`, undefined);
      expect({ method, status: r.status }).toEqual({ method, status: 401 });
    }
    // none of the refusals changed it
    expect(await link()).toEqual({ token });

    const rotated = (await manager.c.call(ops.rotateDisplayLink, { params: { idOrSlug: act.slug } })).token;
    expect(rotated).not.toBe(token);
    expect((await anonymous(`/displays/${token}`)).status).toBe(404);
    expect((await anonymous(`/displays/${rotated}`)).status).toBe(200);
    await manager.c.call(ops.removeDisplayLink, { params: { idOrSlug: act.slug } });
    expect(await link()).toEqual({});
    expect((await anonymous(`/displays/${rotated}`)).status).toBe(404);
    // malformed secrets name nothing either
    for (const bad of ['short', 'x'.repeat(44), `${'a'.repeat(42)}!`]) expect((await anonymous(`/displays/${encodeURIComponent(bad)}`)).status).toBe(404);
  });

  it('the link shows the public view, with the public scoreboard off, to anyone; a session sent along changes nothing', async () => {
    expect((await admin.call(ops.getManagedActivity, { params: { idOrSlug: act.slug } })).publicScoreboard).toBe(false);
    const t = await task(open);
    await submit(alice.c, t.slug, codeForm('int main() { return 0; }'));
    await runner.judge('AC');
    const { token } = await manager.c.call(ops.rotateDisplayLink, { params: { idOrSlug: act.slug } });
    const r = await anonymous(`/displays/${token}`);
    expect(r.status).toBe(200);
    const shown: Scoreboard = ScoreboardSchema.strict().parse(r.body);
    const staffBoard = await manager.c.call(ops.getScoreboard, { params: { idOrSlug: act.slug } });
    expect(shown).toEqual({ ...staffBoard, serverTime: shown.serverTime });
    expect(shown.ranking).toEqual(await bob.c.call(ops.getRanking, { params: { idOrSlug: act.slug }, query: { view: 'public' } }));
    expect(shown.ranking.rows.every((row) => row.username === undefined)).toBe(true);
    // the board by its slug stays private signed out
    expect((await anonymous(`/activities/${act.slug}/scoreboard`)).status).toBe(404);
    // a signed-in browser gets the same (its session is not even looked at)
    expect((await sendJson(j.url, 'GET', `/displays/${token}`, alice.c.accessToken)).body).toEqual(r.body);
    expect((await sendJson(j.url, 'GET', `/displays/${token}`, 'y'.repeat(43))).status).toBe(200);
  });

  it('feeds say "changed" after a judged submission, carry nothing, say nothing of a frozen result, and end when access ends', async () => {
    const t = await task(open);
    await manager.c.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, publicScoreboard: true } });
    const { token } = await manager.c.call(ops.rotateDisplayLink, { params: { idOrSlug: act.slug } });
    const pub = await openFeed(`${j.url}/api/v1/activities/${act.slug}/scoreboard/feed`);
    const display = await openFeed(`${j.url}/api/v1/displays/${token}/feed`);
    for (const feed of [pub, display]) {
      expect(feed.status).toBe(200);
      expect(feed.contentType).toMatch(/^text\/event-stream/);
    }
    await eventually(() => j.app.services.scoreboards.feeds.size === 2);
    await pub.next((m) => m.includes(': open'), 0);

    await submit(bob.c, t.slug, codeForm('int main() { return 0; }'));
    const before = [pub.messages.length, display.messages.length];
    await runner.judge('AC');
    await pub.next((m) => m === 'data: changed', before[0]!);
    await display.next((m) => m === 'data: changed', before[1]!);

    // a freeze from ten minutes ago until in an hour: a result judged now is hidden from the public view
    await admin.call(ops.updateSeries, { params: { seriesId: open.id }, body: { rankingFreezeAt: at(-10), rankingRevealAt: at(60) } });
    await submit(alice.c, t.slug, codeForm('int main() { return 1; }'));
    await new Promise((r) => setTimeout(r, 700));
    const mark = pub.messages.length;
    await runner.judge('WA');
    // participants are told (as on the socket) that something changed, with no result; so is the room
    await pub.next((m) => m === 'data: changed', mark);
    const board = ScoreboardSchema.parse((await anonymous(`/activities/${act.slug}/scoreboard`)).body);
    expect(board.freeze).toEqual({ at: at(-10), revealAt: at(60) });
    const aliceRow = board.ranking.rows.find((r) => r.userId === alice.u.id)!;
    expect(aliceRow.cells.find((c) => c.problemId === t.id)).toMatchObject({ frozen: 1, attempts: 0, solved: false });
    // every message either opened the stream, kept it alive or said "changed": nothing else, ever
    for (const m of [...pub.messages, ...display.messages]) expect(['retry: 5000', ': open', ': keep-alive', 'data: changed']).toContain(m.split('\n').pop());
    await admin.call(ops.updateSeries, { params: { seriesId: open.id }, body: { rankingFreezeAt: null, rankingRevealAt: null } });

    // rotating the link ends its feeds at once; the public feed lives on until the board is made private
    await manager.c.call(ops.rotateDisplayLink, { params: { idOrSlug: act.slug } });
    await display.ended;
    await eventually(() => j.app.services.scoreboards.feeds.size === 1);
    expect((await openFeed(`${j.url}/api/v1/displays/${token}/feed`)).status).toBe(404);
    await manager.c.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, publicScoreboard: false } });
    await pub.ended;
    await eventually(() => j.app.services.scoreboards.feeds.size === 0);
    const refused = await openFeed(`${j.url}/api/v1/activities/${act.slug}/scoreboard/feed`);
    expect(refused.status).toBe(404);
  });

  it('a screen that hangs up is let go', async () => {
    await manager.c.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, publicScoreboard: true } });
    const feeds = await Promise.all([1, 2, 3].map(() => openFeed(`${j.url}/api/v1/activities/${act.slug}/scoreboard/feed`)));
    await eventually(() => j.app.services.scoreboards.feeds.size === 3);
    for (const f of feeds) f.close();
    await eventually(() => j.app.services.scoreboards.feeds.size === 0);
    await manager.c.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, publicScoreboard: false } });
  });

  it('never writes a display secret to the log', async () => {
    const { token } = await manager.c.call(ops.rotateDisplayLink, { params: { idOrSlug: act.slug } });
    await anonymous(`/displays/${token}`);
    (await openFeed(`${j.url}/api/v1/displays/${token}/feed`)).close();
    await fetch(`${j.url}/display/${token}`);
    const file = join(j.dataDir, 'logs', 'judge.log');
    await eventually(() => readFileSync(file, 'utf8').includes('/api/v1/displays/…'));
    expect(readFileSync(file, 'utf8')).not.toContain(token);
  });
});
