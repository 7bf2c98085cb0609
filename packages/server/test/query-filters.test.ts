import { describe, expect, it } from 'vitest';
import { raw } from './harness.js';
import { codeForm } from './support/forms.js';
import { act, admin, alice, j, manager, open, runner, submit, task, useSubmissionWorld } from './support/submissions.js';

/**
 * An empty query value is no filter (decisions §2): a form's empty choice (`state=`) lists what the
 * unfiltered request lists, for enumerated filters, booleans and free text alike, while a value
 * outside the list is still refused.
 */

const get = async (path: string, token = admin.accessToken!) => {
  const r = await raw(`${j.url}/api/v1${path}`, { token });
  return { status: r.status, body: r.body };
};

async function sameAsUnfiltered(base: string, empty: string, token?: string): Promise<void> {
  const sep = base.includes('?') ? '&' : '?';
  const unfiltered = await get(base, token);
  expect(unfiltered.status).toBe(200);
  expect(await get(`${base}${sep}${empty}`, token)).toEqual(unfiltered);
}

describe('empty query values', () => {
  useSubmissionWorld();

  it('mean no filter on the managers’ submission list; an unknown state is still 422', async () => {
    const t = await task(open);
    await submit(alice.c, t.slug, codeForm('int main(){}'));
    await submit(alice.c, t.slug, codeForm('int main(){return 0;}'));
    await runner.judge('WA');
    const all = await get(`/submissions?activityId=${act.id}`, manager.c.accessToken!);
    expect(all.body.total).toBe(2);
    await sameAsUnfiltered(`/submissions?activityId=${act.id}`, 'state=&verdict=&search=&excluded=&seriesId=', manager.c.accessToken!);
    expect((await get(`/submissions?activityId=${act.id}&state=queued`, manager.c.accessToken!)).body.total).toBe(1);
    const bad = await get(`/submissions?activityId=${act.id}&state=asleep`, manager.c.accessToken!);
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 422, code: 'validation_failed' });
  });

  it('mean no filter on runners, activities, problems and accounts', async () => {
    await sameAsUnfiltered('/runners', 'state=&search=');
    expect((await get('/runners?state=')).body.total).toBeGreaterThan(0);
    expect((await get('/runners?state=sleeping')).status).toBe(422);
    await sameAsUnfiltered('/activities', 'state=', alice.c.accessToken!);
    expect((await get('/activities?state=someday', alice.c.accessToken!)).status).toBe(422);
    await sameAsUnfiltered('/problems', 'mineOnly=&sharedOnly=&includeArchived=&search=');
    await sameAsUnfiltered('/users/managed', 'includeBlocked=&temporaryOnly=');
    // the last of repeated values decides, as before: an empty last one is no filter
    await sameAsUnfiltered('/runners', 'state=approved&state=');
  });
});
