import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops } from '@judge/contract';
import { raw, TestJudge } from './harness.js';
import { expectProblem, req } from './support/identity.js';

// GET/PUT /instance/external-content: the hosts POST /files/fetch may download from (decisions §11)

describe('the external-content list', () => {
  let j: TestJudge;
  let admin: string;
  let pupil: string;
  const stored = async () => JSON.stringify(await j.rows('instance_settings'));

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = (await j.admin()).accessToken!;
    pupil = (await j.signIn(await j.user('ec-pupil'))).accessToken!;
  });
  afterAll(() => j.stop());

  it('starts empty, so fetching is off', async () => {
    const r = await req(j, 'GET', '/instance/external-content', { token: admin });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ enabled: false, hosts: [] });
  });

  it('PUT replaces the list: lowercased, deduplicated and sorted; GET reads it back', async () => {
    const r = await req(j, 'PUT', '/instance/external-content', {
      token: admin,
      body: { hosts: ['Raw.GitHubUserContent.com', '*.github.io', ' files.example.org:8443 ', 'raw.githubusercontent.com', '127.0.0.1'] },
    });
    expect(r.status, r.text).toBe(200);
    const list = { enabled: true, hosts: ['*.github.io', '127.0.0.1', 'files.example.org:8443', 'raw.githubusercontent.com'] };
    expect(r.body).toEqual(list);
    expect((await req(j, 'GET', '/instance/external-content', { token: admin })).body).toEqual(list);
    // the SDK's typed call agrees
    const client = await j.admin();
    expect(await client.call(ops.getExternalContent)).toEqual(list);
  });

  it('the list is the administrators\': GET /instance (anonymous) and PUT /instance neither show nor lose it', async () => {
    const anon = await raw(`${j.url}/api/v1/instance`);
    expect(anon.status).toBe(200);
    expect(anon.text).not.toMatch(/github|externalContent/i);
    const put = await req(j, 'PUT', '/instance', { token: admin, body: { name: 'Lab judge' } });
    expect(put.status, put.text).toBe(200);
    expect(put.text).not.toMatch(/github|externalContent/i);
    expect((await req(j, 'GET', '/instance/external-content', { token: admin })).body.hosts).toContain('*.github.io');
  });

  it('refuses a bad entry with 422 validation_failed naming it, and changes nothing', async () => {
    const before = await stored();
    for (const bad of ['https://files.example.org', 'files.example.org/path', '*.com', 'a..b', 'host:99999', '[::1]', 'user@host.example']) {
      const r = await req(j, 'PUT', '/instance/external-content', { token: admin, body: { hosts: ['fine.example', bad] } });
      expectProblem(r, 422, 'validation_failed');
      expect(r.body.errors['hosts.1'], bad).toEqual([expect.stringContaining(JSON.stringify(bad.trim().toLowerCase()))]);
    }
    expectProblem(await req(j, 'PUT', '/instance/external-content', { token: admin, body: { hosts: Array.from({ length: 101 }, (_, i) => `h${i}.example`) } }), 422, 'validation_failed');
    expectProblem(await req(j, 'PUT', '/instance/external-content', { token: admin, body: { hosts: 'github.io' } }), 422, 'validation_failed');
    expectProblem(await req(j, 'PUT', '/instance/external-content', { token: admin, body: {} }), 422, 'validation_failed');
    expect(await stored()).toBe(before);
  });

  it('a participant: 403 naming instance:update, for reading as for writing; anonymous: 401', async () => {
    const before = await stored();
    const read = await req(j, 'GET', '/instance/external-content', { token: pupil });
    expectProblem(read, 403, 'forbidden');
    expect(read.body.detail).toMatch(/instance:update/);
    expectProblem(await req(j, 'PUT', '/instance/external-content', { token: pupil, body: { hosts: ['evil.example'] } }), 403, 'forbidden');
    expectProblem(await req(j, 'GET', '/instance/external-content'), 401, 'unauthenticated');
    expectProblem(await req(j, 'PUT', '/instance/external-content', { body: { hosts: ['evil.example'] } }), 401, 'unauthenticated');
    expect(await stored()).toBe(before);
  });

  it('an empty list turns fetching off again', async () => {
    const r = await req(j, 'PUT', '/instance/external-content', { token: admin, body: { hosts: [] } });
    expect(r.body).toEqual({ enabled: false, hosts: [] });
    expectProblem(await req(j, 'POST', '/files/fetch', { token: admin, body: { url: 'https://raw.githubusercontent.com/x' } }), 422, 'fetch.host.notAllowed');
  });
});
