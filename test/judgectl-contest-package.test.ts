import { clics, ops, type Activity } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, TestJudge } from '../packages/server/test/harness.js';
import { packagedProblem } from '../packages/server/test/support/packaged-problem.js';
import { legacyPackage, zipOf } from '../packages/server/test/zips.js';
import { judgectlAs, type CtlSession } from './judgectl-child.js';
import { SUM_PACKAGE } from './one-problem-contest.js';

// `judgectl contest export` and `contest import` of a CLICS contest package (docs/contest-package.md)
// against a real server, a child process per call; one server for every case.

const HOUR = 3600_000;
/** The YAML reader judgectl writes with (a dependency of the CLI's, not of the tests'). */
const { parse } = createRequire(new URL('../packages/cli/package.json', import.meta.url))('yaml') as { parse(text: string): unknown };

function writeTree(root: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), content);
  }
}

const json = (dir: string, file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8'));

/** Every JSON file of a package checked against the contract's strict CLICS schemas. */
function checkJsonFiles(dir: string): string[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  for (const f of files) {
    const name = f.replace(/\.json$/, '');
    const data = json(dir, f);
    const single = { api: clics.ApiInfo, contest: clics.Contest, state: clics.State, scoreboard: clics.Scoreboard }[name];
    const schema = single ?? clics.COLLECTIONS[name as clics.CollectionName];
    expect(schema, `a schema for ${f}`).toBeDefined();
    const r = single ? schema!.safeParse(data) : clics.COLLECTIONS[name as clics.CollectionName].array().safeParse(data);
    expect(r.success, `${f}: ${JSON.stringify(r.error?.issues)}`).toBe(true);
  }
  return files.sort();
}

/** What two exports of the same contest share: everything but ids and the contest's own id. */
function comparable(dir: string) {
  const groups = new Map<string, string>(json(dir, 'groups.json').map((g: clics.Group) => [g.id, g.name]));
  const orgs = new Map<string, string>(json(dir, 'organizations.json').map((o: clics.Organization) => [o.id, o.name]));
  const { id: _id, ...contest } = json(dir, 'contest.json');
  return {
    contest,
    problems: json(dir, 'problems.json').map((p: clics.Problem) => ({ ...p })),
    groups: [...groups.values()].sort(),
    organizations: [...orgs.values()].sort(),
    teams: json(dir, 'teams.json')
      .map((t: clics.Team) => ({ label: t.label, name: t.name, groups: t.group_ids.map((g) => groups.get(g)).sort(), org: t.organization_id && orgs.get(t.organization_id) }))
      .sort((a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label)),
    accounts: json(dir, 'accounts.json')
      .map((a: clics.Account) => `${a.username}:${a.type}`)
      .sort(),
  };
}

describe('judgectl: CLICS contest packages', { timeout: 90_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let act: Activity;
  let asAdmin: CtlSession;
  let asAnn: CtlSession;
  let work: string;
  const start = new Date(Math.ceil((Date.now() + 24 * HOUR) / 60_000) * 60_000);
  const end = new Date(start.getTime() + 5 * HOUR);
  const gone = async (slug: string) => expect(admin.call(ops.getManagedActivity, { params: { idOrSlug: slug } })).rejects.toMatchObject({ status: 404 });

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    work = mkdtempSync(join(tmpdir(), 'contest-package-'));
    act = await admin.call(ops.createActivity, {
      body: { slug: 'spring', name: 'Spring contest', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', startDate: start.toISOString(), endDate: end.toISOString() },
    });
    const series = await admin.call(ops.createSeries, {
      params: { idOrSlug: act.slug },
      body: { slug: 'main', name: 'Main', startDate: start.toISOString(), endDate: end.toISOString(), rankingFreezeAt: new Date(end.getTime() - HOUR).toISOString() },
    });
    for (const [slug, files] of [['sum', SUM_PACKAGE], ['hello', legacyPackage('Hello')]] as const) {
      const { problem } = await packagedProblem(admin, { slug: `lib-${slug}`, name: slug === 'sum' ? 'Sum' : 'Hello', type: 'standard-io@1' }, await zipOf(files), `${slug}.zip`);
      await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId: problem.id, slug } });
    }
    const people: [string, string, string[]][] = [
      ['ann', 'Ann Team', ['Division 1', 'org:Uni A']],
      ['bob', 'Bob Team', ['Division 1', 'org:Uni B']],
      ['cid', 'Cid Team', ['Division 2', 'org:Uni A']],
    ];
    let annPassword = '';
    for (const [username, firstName, tags] of people) {
      const u = await admin.call(ops.createUser, { body: { username, firstName, tags } });
      if (username === 'ann') annPassword = u.password;
      await j.grant(u.userId, 'participant', act.id);
    }
    const sam = await admin.call(ops.createUser, { body: { username: 'sam', firstName: 'Sam Staff' } });
    await j.grant(sam.userId, 'manager', act.id);
    [asAdmin, asAnn] = await Promise.all([judgectlAs(j.url, 'admin', ADMIN_PASSWORD), judgectlAs(j.url, 'ann', annPassword)]);
  });
  afterAll(async () => {
    for (const s of [asAdmin, asAnn]) s?.close();
    await j?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('exports a contest package: every JSON file valid against the strict CLICS schemas, the YAML forms, each problem package, no password', async () => {
    const dir = join(work, 'spring');
    const r = await asAdmin.ok<{ files: { path: string; items: number | null }[] }>('contest', 'export', 'spring', dir);
    for (const f of r.files) expect(existsSync(join(dir, f.path)), f.path).toBe(true);
    expect(checkJsonFiles(dir)).toEqual(['accounts.json', 'api.json', 'contest.json', 'groups.json', 'judgement-types.json', 'languages.json', 'organizations.json', 'problems.json', 'teams.json']);
    const contest = json(dir, 'contest.json') as clics.Contest;
    expect(contest).toMatchObject({ id: 'spring', name: 'Spring contest', duration: '5:00:00.000', scoreboard_freeze_duration: '1:00:00.000', scoreboard_type: 'pass-fail' });
    expect(parse(readFileSync(join(dir, 'contest.yaml'), 'utf8'))).toEqual(contest);
    expect(parse(readFileSync(join(dir, 'problems.yaml'), 'utf8'))).toEqual(json(dir, 'problems.json'));
    expect(parse(readFileSync(join(dir, 'problemset.yaml'), 'utf8'))).toEqual({ problems: [{ letter: 'A', 'short-name': 'sum', name: 'Sum' }, { letter: 'B', 'short-name': 'hello', name: 'Hello' }] });
    for (const id of ['sum', 'hello']) expect(readFileSync(join(dir, 'problems', id, `${id}.zip`)).subarray(0, 2).toString()).toBe('PK');
    expect(json(dir, 'teams.json').map((t: clics.Team) => t.label).sort()).toEqual(['ann', 'bob', 'cid']);
    expect(comparable(dir).organizations).toEqual(['Uni A', 'Uni B']);
    expect(comparable(dir).accounts).toEqual(['admin:admin', 'ann:team', 'bob:team', 'cid:team', 'sam:admin']);
    expect(readFileSync(join(dir, 'accounts.json'), 'utf8')).not.toMatch(/password/i);

    // a directory that holds anything is refused without --force, and written into with it
    expect(await asAdmin.refused('contest', 'export', 'spring', dir)).toContain(`${dir} is not empty: give --force`);
    const results = await asAdmin.ok<{ files: { path: string }[] }>('contest', 'export', 'spring', dir, '--force', '--with-results');
    expect(results.files.map((f) => f.path)).toEqual(expect.arrayContaining(['submissions.json', 'judgements.json', 'runs.json', 'clarifications.json', 'awards.json', 'scoreboard.json', 'state.json']));
    checkJsonFiles(dir);
  });

  it('refuses a participant: exporting needs the rights of the staff', async () => {
    const err = await asAnn.refused('contest', 'export', 'spring', join(work, 'by-ann'));
    expect(err).toContain('no activity spring that you manage: exporting needs activity:update there');
    expect(existsSync(join(work, 'by-ann'))).toBe(false);
  });

  it('imports the package under a new slug; exporting that again gives the same package but for ids', async () => {
    const dir = join(work, 'spring');
    // its accounts exist on this judge: refused unless they are to be enrolled as they are
    expect(await asAdmin.refused('contest', 'import', dir, '--slug', 'autumn')).toContain('the accounts ann, bob, cid, sam exist already: give --enrol-existing');
    await gone('autumn');

    const made = await asAdmin.ok('contest', 'import', dir, '--slug', 'autumn', '--enrol-existing');
    expect(made.activity).toMatchObject({ slug: 'autumn', name: 'Spring contest', startDate: start.toISOString(), endDate: end.toISOString() });
    expect(made.series).toMatchObject({ slug: 'main', rankingFreezeAt: new Date(end.getTime() - HOUR).toISOString() });
    expect(made.problems.map((p: { label: string; slug: string; problem: string }) => [p.label, p.slug, p.problem])).toEqual([
      ['A', 'sum', 'autumn-sum'],
      ['B', 'hello', 'autumn-hello'],
    ]);
    expect(made.credentialsFile).toBeNull();
    const grants = await admin.call(ops.listGrants, { query: { activityId: made.activity.id, pageSize: 50 } });
    expect(grants.items.map((g) => g.roleName).sort()).toEqual(['Manager', 'Manager', 'Participant', 'Participant', 'Participant']);

    const again = join(work, 'autumn');
    await asAdmin.ok('contest', 'export', 'autumn', again);
    expect(comparable(again)).toEqual(comparable(dir));
    expect(json(again, 'contest.json').id).toBe('autumn');
  });

  it("imports a DOMjudge-style package: older keys, problemset.yaml, <id>/ directories, accounts.yaml with passwords", async () => {
    const dir = join(work, 'dj');
    writeTree(dir, {
      'contest.yaml': 'short-name: dj\nname: DOMjudge style\nstart-time: 2030-05-01T10:00:00+02:00\nduration: 5:00:00\nscoreboard-freeze-length: 1:00:00\npenalty-time: 20\n',
      'problemset.yaml': 'problems:\n  - letter: A\n    short-name: hello\n    color: blue\n  - letter: B\n    short-name: sum\n    rgb: "#ff0000"\n',
      ...Object.fromEntries(Object.entries(legacyPackage('Hello')).map(([k, v]) => [`hello/${k}`, v])),
      ...Object.fromEntries(Object.entries(SUM_PACKAGE).map(([k, v]) => [`sum/${k}`, v])),
      'groups.json': JSON.stringify([{ id: 'g1', name: 'Participants', hidden: false }, { id: 'g2', name: 'Hors concours' }]),
      'organizations.json': JSON.stringify([{ id: 'o1', name: 'Uni X', formal_name: 'University X', country: 'NLD' }]),
      'teams.json': JSON.stringify([
        { id: '1', name: 'Team One', label: '1', group_ids: ['g1'], organization_id: 'o1' },
        { id: '2', name: 'Team Two', group_ids: ['g1', 'g2'] },
        { id: '3', name: 'Team Three', label: 'dj3', group_ids: ['g2'], organization_id: 'o1' },
      ]),
      'accounts.yaml':
        '- id: team1\n  username: dj-team1\n  password: team1-secret-pw\n  type: team\n  team_id: "1"\n  ip: 10.1.1.1\n' +
        '- username: dj-team2\n  password: team2-secret-pw\n  type: team\n  team_id: "2"\n' +
        '- username: dj-judge\n  password: judge-secret-pw\n  type: judge\n',
    });
    const made = await asAdmin.ok('contest', 'import', dir);
    expect(made.activity).toMatchObject({ slug: 'dj', name: 'DOMjudge style', startDate: '2030-05-01T08:00:00.000Z', endDate: '2030-05-01T13:00:00.000Z' });
    expect(made.series.rankingFreezeAt).toBe('2030-05-01T12:00:00.000Z');
    expect(made.problems.map((p: { label: string; slug: string; name: string }) => [p.label, p.slug, p.name])).toEqual([
      ['A', 'hello', 'Hello'],
      ['B', 'sum', 'Sum'],
    ]);
    expect(made.accounts.map((a: { username: string; password: string }) => `${a.username}:${a.password}`)).toEqual(['dj-team1:package', 'dj-team2:package', 'dj3:generated', 'dj-judge:package']);
    // the passwords of the package sign in; the one issued is in the credentials file, readable by its owner only
    for (const [username, password] of [['dj-team1', 'team1-secret-pw'], ['dj-judge', 'judge-secret-pw']]) await j.signIn({ username: username!, password: password! });
    expect(made.credentialsFile).toBe(`${dir}-credentials.csv`);
    expect(statSync(made.credentialsFile).mode & 0o777).toBe(0o600);
    const [, line] = readFileSync(made.credentialsFile, 'utf8').trim().split(/\r?\n/);
    const [user, password] = line!.split(',');
    await j.signIn({ username: user!, password: password! });

    // the teams' groups and organisations are their tags, read back by the CLICS API as the package had them
    const out = join(work, 'dj-out');
    await asAdmin.ok('contest', 'export', 'dj', out);
    const back = comparable(out);
    expect(back.groups).toEqual(['Hors concours', 'Participants']);
    expect(back.organizations).toEqual(['Uni X']);
    expect(back.teams).toEqual([
      { label: 'dj-team1', name: 'Team One', groups: ['Participants'], org: 'Uni X' },
      { label: 'dj-team2', name: 'Team Two', groups: ['Hors concours', 'Participants'], org: null },
      { label: 'dj3', name: 'Team Three', groups: ['Hors concours'], org: 'Uni X' },
    ]);
    expect(back.accounts).toEqual(['admin:admin', 'dj-judge:admin', 'dj-team1:team', 'dj-team2:team', 'dj3:team']);

    // the same package again: the slug is taken, and nothing more is made
    expect(await asAdmin.refused('contest', 'import', dir, '--out', join(work, 'again.csv'))).toContain('the activity dj exists already; nothing was created');
  });

  it('refuses a faulty package before creating anything, naming the file, the entry and the key', async () => {
    const bad = join(work, 'bad');
    writeTree(bad, {
      'contest.yaml': 'id: bad\nname: Bad\nduration: five hours\nscoreboard_type: golf\n',
      'teams.json': JSON.stringify([{ id: 't1', name: 'One', group_ids: ['nope'] }, { id: 't 2' }]),
    });
    const err = await asAdmin.refused('contest', 'import', bad);
    expect(err).toContain('contest.yaml: duration: a CLICS RELTIME');
    expect(err).toContain('contest.yaml: scoreboard_type:');
    expect(err).toContain('teams.json: entry 2 (id t 2): id: a CLICS ID');
    expect(err).toContain('teams.json: entry 2 (id t 2): name:');
    expect(err).toContain('teams.json: team t1: group nope is not in groups.json');
    expect(err).toContain('nothing was created');
    await gone('bad');

    const missing = join(work, 'missing');
    writeTree(missing, { 'contest.json': JSON.stringify({ id: 'missing', name: 'Missing', duration: '1:00:00' }), 'problems.yaml': '- id: ghost\n  label: A\n' });
    expect(await asAdmin.refused('contest', 'import', missing)).toContain(
      'problems.yaml: problem ghost: no package found (looked for problems/ghost/ghost.zip, problems/ghost/, ghost/ and ghost.zip)',
    );
    await gone('missing');
    const problems = await admin.call(ops.listProblems, { query: { search: 'missing', includeArchived: 'true' } });
    expect(problems.items).toEqual([]);
  });
});
