import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type LtiPlatform } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { ADMIN_PASSWORD, ManualClock, TestJudge } from './harness.js';
import { World } from './series-fixtures.js';
import { codeForm } from './support/forms.js';
import { expectProblem, req } from './support/identity.js';
import { DEPLOYMENT, launch, postForm, refusalCode, ROLE, sessionCookieOf, startLtiPlatform, type SimulatedPlatform } from './support/lti-platform.js';
import { ProtocolRunner } from './support/submissions.js';
import { until } from './support/wait.js';

/**
 * LTI 1.3 launches against a simulated LMS (support/lti-platform.ts) over real HTTP (decisions
 * §21): the browser's trip from the platform's login initiation through its authorization endpoint
 * back to the judge's launch; who becomes whom and lands where; each refusal; the framed launch;
 * and the score a judged submission sends back to the platform's line item.
 */

let j: TestJudge;
let admin: JudgeClient;
let sim: SimulatedPlatform;
let authority: LtiPlatform;
let act: Activity;
let runner: ProtocolRunner;

const nobodyIsSignedIn = (trip: { cookie: string | undefined }) => expect(trip.cookie).toBeUndefined();
const account = (cookie: string) => new JudgeClient({ baseUrl: j.url, cookie }).call(ops.getAccount);
const identity = async (subject: string) => (await j.rows('lti_identities')).find((r) => r.subject === subject) as { userId: string } | undefined;
const roleIn = async (userId: string) => (await admin.call(ops.listGrants, { query: { userId, activityId: act.id } })).items.map((g) => g.roleName);

beforeAll(async () => {
  j = await TestJudge.start();
  // the tests send scores with tick(now) themselves
  j.app.ltiGrades.stop();
  admin = await j.admin();
  sim = await startLtiPlatform(`${j.url}/api/v1/lti/jwks.json`);
  const urls = { issuer: sim.issuer, clientId: sim.clientId, keySetUrl: sim.keySetUrl, authTokenUrl: sim.authTokenUrl, authLoginUrl: sim.authLoginUrl };
  authority = await admin.call(ops.createLtiPlatform, {
    body: { displayName: 'School Moodle', ...urls, deploymentId: sim.deploymentId, isIdentityAuthority: true, identityNamespace: 'moodle', usernameClaim: 'email' },
  });
  const w = await World.create(j, new ManualClock());
  act = await w.activity({ rankingType: 'points' });
  const week = await admin.call(ops.createSeries, { params: { idOrSlug: act.slug }, body: { slug: 'week-1', name: 'Week 1' } });
  const { problem } = await w.problem(admin, { package: true });
  await admin.call(ops.attachProblem, { params: { seriesId: week.id }, body: { problemId: problem.id, slug: 'sum', maxPoints: 100 } });
  runner = await ProtocolRunner.approved(j, admin, 'runner-lti');
});
afterAll(async () => {
  await j?.stop();
  await sim?.close();
});

describe('a launch signs in and lands on the activity', () => {
  it('refuses to place a link for an instructor who manages nothing here, keeping the account the platform vouched for', async () => {
    const trip = await launch(j.url, sim, { sub: 'teacher-1', roles: [ROLE.instructor], custom: { activity: act.slug } });
    expect([trip.status, refusalCode(trip.html)]).toEqual([403, 'lti.launch.placement']);
    nobodyIsSignedIn(trip);
    const madeId = (await identity('teacher-1'))?.userId;
    const made = (await j.rows('users')).find((u) => u.id === madeId);
    expect(made).toMatchObject({ username: 'moodle-teacher-1', firstName: 'Ann', lastName: 'Lee', isLocal: false });
    expect(await j.count('lti_placements')).toBe(0);
  });

  it("places the link once the instructor manages the activity, and lands on its staff pages with a browser-session cookie", async () => {
    const teacher = (await identity('teacher-1'))!.userId;
    await j.grant(teacher, 'manager', act.id);
    const trip = await launch(j.url, sim, { sub: 'teacher-1', roles: [ROLE.instructor], custom: { activity: act.slug } });
    expect([trip.status, trip.location]).toEqual([302, `/staff/a/${act.slug}`]);
    expect(trip.cookieLine).toMatch(/; httponly/i);
    expect(trip.cookieLine).toMatch(/samesite=lax/i);
    expect(trip.cookieLine).not.toMatch(/max-age|expires/i);
    expect((await account(trip.cookie!)).userId).toBe(teacher);
    expect(await j.rows('lti_placements')).toEqual([expect.objectContaining({ platformId: authority.id, contextId: 'course-1', resourceLinkId: 'link-1', activityId: act.id })]);
  });

  it('makes a learner an account and a participant, and lands on the activity', async () => {
    const trip = await launch(j.url, sim, { sub: 'learner-1', roles: [ROLE.learner], lineItem: sim.lineItemUrl('7') });
    expect([trip.status, trip.location]).toEqual([302, `/a/${act.slug}`]);
    const me = await account(trip.cookie!);
    expect(me).toMatchObject({ username: 'moodle-learner-1', isLocal: false });
    expect(await roleIn(me.userId)).toEqual(['Participant']);
    const keys = await new JudgeClient({ baseUrl: j.url, cookie: trip.cookie! }).call(ops.myPermissions, { query: { activityId: act.id } });
    expect(keys).toContain('submission:create');
    expect(keys).not.toContain('activity:update');
    // the same learner again: the same account, still a participant
    const again = await launch(j.url, sim, { sub: 'learner-1', roles: [ROLE.learner], lineItem: sim.lineItemUrl('7') });
    expect((await account(again.cookie!)).userId).toBe(me.userId);
    expect(await roleIn(me.userId)).toEqual(['Participant']);
  });

  it("makes the course's other instructors managers of the placed activity", async () => {
    const trip = await launch(j.url, sim, { sub: 'teacher-2', roles: ['http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant'] });
    expect([trip.status, trip.location]).toEqual([302, `/staff/a/${act.slug}`]);
    expect(await roleIn((await account(trip.cookie!)).userId)).toEqual(['Manager']);
  });

  it('lands a learner on the problem a link names', async () => {
    const link = { resourceLinkId: 'link-sum', custom: { activity: act.slug, problem: 'sum' } };
    expect((await launch(j.url, sim, { sub: 'teacher-1', roles: [ROLE.instructor], ...link })).status).toBe(302);
    const trip = await launch(j.url, sim, { sub: 'learner-1', ...link });
    expect(trip.location).toBe(`/a/${act.slug}/p/sum`);
  });

  it('opens the judge in a window of its own when launched inside a frame; its ticket works once', async () => {
    const trip = await launch(j.url, sim, { sub: 'learner-1' }, { 'sec-fetch-dest': 'iframe' });
    expect(trip.status).toBe(200);
    nobodyIsSignedIn(trip);
    const href = /href="([^"]+)"[^>]*target="_blank"/.exec(trip.html)![1]!;
    const opened = await fetch(`${j.url}${href}`, { redirect: 'manual' });
    expect([opened.status, opened.headers.get('location')]).toEqual([302, `/a/${act.slug}`]);
    expect((await account(sessionCookieOf(opened)!)).username).toBe('moodle-learner-1');
    const twice = await fetch(`${j.url}${href}`, { redirect: 'manual' });
    expect([twice.status, refusalCode(await twice.text()), sessionCookieOf(twice)]).toEqual([400, 'lti.continue.ticket', undefined]);
  });

  it("ignores a session cookie the browser sends along with the platform's post (no CSRF refusal)", async () => {
    const cookie = await j.anonymous().loginWithCookie('admin', ADMIN_PASSWORD);
    const trip = await launch(j.url, sim, { sub: 'learner-1' }, { cookie: `judge_session=${cookie}` });
    expect([trip.status, trip.location]).toEqual([302, `/a/${act.slug}`]);
    expect((await account(trip.cookie!)).username).toBe('moodle-learner-1');
  });

  it('starts a login posted as a form with every parameter the platform needs', async () => {
    const res = await postForm(`${j.url}/api/v1/lti/login`, { iss: sim.issuer, login_hint: 'learner-1', target_link_uri: `${j.url}/`, lti_message_hint: 'hint-42', client_id: sim.clientId }, sim.issuer);
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).toBe(sim.authLoginUrl);
    expect(Object.fromEntries(to.searchParams)).toEqual({
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: sim.clientId,
      redirect_uri: `${j.url}/api/v1/lti/launch`,
      login_hint: 'learner-1',
      lti_message_hint: 'hint-42',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
  });
});

describe('what a launch refuses, signing nobody in', () => {
  const refused = async (spec: Parameters<typeof launch>[2], status: number, code: string) => {
    const trip = await launch(j.url, sim, spec);
    expect([trip.status, refusalCode(trip.html)], trip.html).toEqual([status, code]);
    nobodyIsSignedIn(trip);
    expect(trip.html).not.toMatch(/JWT|signature|audience|expired/i);
    return trip;
  };

  it('a token for another audience, an expired one, one signed with a key the platform does not publish', async () => {
    await refused({ sub: 'learner-1', claims: { aud: 'another-tool' } }, 400, 'lti.launch.token');
    await refused({ sub: 'learner-1', claims: { aud: [sim.clientId, 'another-tool'] } }, 400, 'lti.launch.token');
    const past = Math.floor(Date.now() / 1000) - 3600;
    await refused({ sub: 'learner-1', claims: { iat: past - 300, exp: past } }, 400, 'lti.launch.token');
    await refused({ sub: 'learner-1', forged: true }, 400, 'lti.launch.token');
  });

  it('the same ID token and state posted twice', async () => {
    const first = await launch(j.url, sim, { sub: 'learner-1' });
    expect(first.status).toBe(302);
    const replay = await postForm(`${j.url}/api/v1/lti/launch`, first.form, sim.issuer);
    expect([replay.status, refusalCode(await replay.text()), sessionCookieOf(replay)]).toEqual([400, 'lti.launch.state', undefined]);
  });

  it('a nonce not issued with the state, a deployment not registered, a message that is no resource link launch', async () => {
    await refused({ sub: 'learner-1', claims: { nonce: 'made-up' } }, 400, 'lti.launch.nonce');
    await refused({ sub: 'learner-1', claims: { [DEPLOYMENT]: 'deployment-9' } }, 400, 'lti.launch.deployment');
    await refused({ sub: 'learner-1', claims: { 'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiDeepLinkingRequest' } }, 400, 'lti.launch.message');
  });

  it('a login from an issuer nobody registered, and a link that names no activity', async () => {
    const res = await fetch(`${j.url}/api/v1/lti/login?iss=${encodeURIComponent('https://elsewhere.example')}&login_hint=x&target_link_uri=x`, { redirect: 'manual' });
    expect([res.status, refusalCode(await res.text())]).toEqual([400, 'lti.login.unknown']);
    await refused({ sub: 'teacher-1', roles: [ROLE.instructor], resourceLinkId: 'link-none', custom: { activity: 'no-such-activity' } }, 400, 'lti.launch.activity');
  });
});

describe('a platform that is no identity authority', () => {
  it('signs in only an account an administrator linked to its user', async () => {
    const urls = { issuer: sim.issuer, clientId: sim.clientId, keySetUrl: sim.keySetUrl, authTokenUrl: sim.authTokenUrl, authLoginUrl: sim.authLoginUrl };
    const other = await admin.call(ops.createLtiPlatform, { body: { displayName: 'Second Moodle', ...urls, deploymentId: 'deployment-2' } });
    const spec = { sub: 'outsider-1', roles: [ROLE.instructor], loginDeployment: 'deployment-2', claims: { [DEPLOYMENT]: 'deployment-2' }, custom: { activity: act.slug } };
    const users = await j.count('users');
    const trip = await launch(j.url, sim, spec);
    expect([trip.status, refusalCode(trip.html)]).toEqual([403, 'lti.launch.unlinked']);
    expect(trip.html).toContain('outsider-1');
    expect(await j.count('users')).toBe(users);

    const zoe = await j.user('zoe');
    await j.grant(zoe.id, 'manager', act.id);
    expect((await req(j, 'POST', `/lti/platforms/${other.id}/links`, { token: admin.accessToken!, body: { subject: 'outsider-1', userId: zoe.id } })).status).toBe(204);
    const linked = await launch(j.url, sim, spec);
    expect([linked.status, linked.location]).toEqual([302, `/staff/a/${act.slug}`]);
    expect((await account(linked.cookie!)).userId).toBe(zoe.id);
    expectProblem(await req(j, 'DELETE', `/lti/platforms/${other.id}`, { token: admin.accessToken! }), 409, 'lti.platform.inUse');
  });
});

describe('scores go back to the platform (Assignment and Grade Services)', () => {
  const gradeRow = async () => (await j.rows('lti_grades')).find((r) => r.subject === 'learner-1') as { failures: number; lastError: string | null; nextAttemptAt: string | null };
  const scoreOf = (given: number) => sim.scores.find((s) => s.body.scoreGiven === given);

  it("sends a judged submission's points to the line item with a token its client assertion earned", async () => {
    const learner = new JudgeClient({ baseUrl: j.url, cookie: (await launch(j.url, sim, { sub: 'learner-1', lineItem: sim.lineItemUrl('7') })).cookie! });
    await learner.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'sum' }, form: codeForm('int main() { return 0; }') });
    await runner.judge('AC');
    const score = await until('the score at the platform', async () => (await j.app.ltiGrades.tick(new Date()), scoreOf(100)), 15_000, 50);
    expect(score).toEqual({
      path: '/lineitems/7/lineitem/scores?type_id=1',
      authorization: expect.stringMatching(/^Bearer token-/),
      contentType: 'application/vnd.ims.lis.v1.score+json',
      body: { userId: 'learner-1', scoreGiven: 100, scoreMaximum: 100, activityProgress: 'Completed', gradingProgress: expect.any(String), timestamp: expect.stringMatching(/Z$/) },
    });
    expect(sim.tokenRequests.length).toBeGreaterThan(0);
    expect(sim.tokenRequests.every((t) => t.verified)).toBe(true);
    // only learners of a link with a line item are sent for
    expect((await j.rows('lti_grades')).map((r) => r.subject)).toEqual(['learner-1']);
  });

  it('tries again later while the platform fails, backing off', async () => {
    sim.failScores(1);
    const sent = sim.scores.length;
    const learner = new JudgeClient({ baseUrl: j.url, cookie: (await launch(j.url, sim, { sub: 'learner-1', lineItem: sim.lineItemUrl('7') })).cookie! });
    await learner.call(ops.submit, { params: { idOrSlug: act.slug, problemSlug: 'sum' }, form: codeForm('int main() { return 1; }') });
    await runner.judge('WA');
    const now = new Date();
    await until('a failed send', async () => (await j.app.ltiGrades.tick(now), (await gradeRow()).failures > 0), 15_000, 50);
    expect(await gradeRow()).toMatchObject({ failures: 1, lastError: expect.stringContaining('503') });
    expect(sim.scores.length).toBe(sent);
    expect(await j.app.ltiGrades.tick(now)).toBe(0);
    expect(await j.app.ltiGrades.tick(new Date(now.getTime() + 31_000))).toBe(1);
    expect(sim.scores.at(-1)!.body).toMatchObject({ userId: 'learner-1', scoreGiven: 100, scoreMaximum: 100 });
    expect(await gradeRow()).toMatchObject({ failures: 0, lastError: null });
  });
});
