import { ops } from '@judge/contract';
import { JudgeClient, RunnerClient, generateRunnerKey } from '@judge/sdk';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, TestJudge } from '../packages/server/test/harness.js';
import { codeForm } from '../packages/server/test/support/forms.js';
import { legacyPackage, zipOf } from '../packages/server/test/zips.js';

// An organiser's day with the built launcher (`pnpm build` first): every judgectl call is a child
// process, exactly as typed in a terminal; the participant and the runner use the SDK.
const CTL = fileURLToPath(new URL('../bin/judgectl', import.meta.url));

function writeTree(root: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), content);
  }
}

// each judgectl call is a Node process of its own: several in one test outlast the default timeout on a loaded machine
describe('judgectl for organisers', { timeout: 120_000 }, () => {
  let j: TestJudge;
  let admin: JudgeClient;
  let home: string;
  let work: string;
  const ctl = (...args: string[]) =>
    new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(CTL, args, { encoding: 'utf8', env: { ...process.env, JUDGECTL_CONFIG_DIR: home, JUDGECTL_PASSWORD: '' } }, (err, stdout, stderr) =>
        resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin?.end();
    });
  /** A command that must succeed; answers its parsed --json output. */
  const ok = async (...args: string[]) => {
    const r = await ctl(...args, '--json');
    expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout);
  };
  const problemSlugs = async () => (await admin.call(ops.listProblems, { query: { pageSize: 200, includeArchived: 'true' } })).items.map((p) => p.slug).sort();

  beforeAll(async () => {
    j = await TestJudge.start();
    admin = await j.admin();
    home = mkdtempSync(join(tmpdir(), 'judgectl-org-'));
    work = join(home, 'work');
    // a contest directory: one package as a directory (with its statement), one as a zip, and noise
    const contest = join(work, 'spring');
    writeTree(join(contest, 'a-plus-b'), { ...legacyPackage('A plus B'), 'problem_statement/problem.en.md': '# A plus B\n\nAdd two numbers.\n' });
    writeFileSync(join(contest, 'sum.zip'), await zipOf(legacyPackage('Sum')));
    writeFileSync(join(contest, 'README.txt'), 'notes for the jury\n');
    // a broken package: problem.yaml but no tests
    writeTree(join(work, 'broken'), { 'problem.yaml': 'name: Broken\n' });
    writeFileSync(join(work, 'pw'), `${ADMIN_PASSWORD}\n`);
    writeFileSync(join(work, 'wrong'), 'not-the-password\n');
  });
  afterAll(async () => {
    await j?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('refuses a wrong server and bad credentials, then signs in', async () => {
    const away = await ctl('login', '--server', 'http://127.0.0.1:9', '--username', 'admin', '--password-file', join(work, 'pw'));
    expect(away.status).toBe(1);
    expect(away.stderr).toMatch(/cannot reach the judge at http:\/\/127\.0\.0\.1:9/);
    const bad = await ctl('login', '--server', j.url, '--username', 'admin', '--password-file', join(work, 'wrong'));
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/\(401 unauthenticated\)/);
    expect(existsSync(join(home, 'credentials.json'))).toBe(false);
    const notYet = await ctl('activities', 'list');
    expect(notYet.status).toBe(1);
    expect(notYet.stderr).toMatch(/not signed in/);

    expect((await ok('login', '--server', j.url, '--username', 'admin', '--password-file', join(work, 'pw'))).username).toBe('admin');
  });

  it('imports a contest from a directory of packages: the activity, one series, every problem assigned', async () => {
    const made = await ok('contest', 'import', join(work, 'spring'), '--slug', 'spring', '--name', 'Spring contest', '--duration', '300');
    expect(made.activity).toMatchObject({ slug: 'spring', name: 'Spring contest', rankingType: 'icpc' });
    expect(made.problems.map((p: { slug: string }) => p.slug)).toEqual(['a-plus-b', 'sum']);
    expect(await problemSlugs()).toEqual(['spring-a-plus-b', 'spring-sum']);

    const [series, ...more] = await admin.call(ops.listManagedSeries, { params: { idOrSlug: 'spring' } });
    expect(more).toEqual([]);
    expect(series!.isOpen).toBe(true);
    expect(Date.parse(series!.endDate!) - Date.now()).toBeGreaterThan(299 * 60_000);
    expect(series!.problems.map((p) => [p.slug, p.problemName, p.hasPackage])).toEqual([
      ['a-plus-b', 'A plus B', true],
      ['sum', 'Sum', true],
    ]);
    // the directory's statement went up as the statement; the zip had none, so one was generated
    const statementOf = async (problemId: string) => {
      const [v] = await admin.call(ops.listProblemVersions, { params: { problemId } });
      const [item] = await admin.call(ops.getProblemVersionContent, { params: { problemId, versionId: v!.id } });
      return Buffer.from(await admin.call(ops.downloadFile, { params: { id: item!.fileId } })).toString('utf8');
    };
    expect(await statementOf(series!.problems[0]!.problemId)).toContain('Add two numbers.');
    expect(await statementOf(series!.problems[1]!.problemId)).toMatch(/^# Sum\n/);

    const shown = await ctl('activities', 'show', 'spring');
    expect(shown.status).toBe(0);
    expect(shown.stdout).toMatch(/Spring contest/);
    expect(shown.stdout).toMatch(/a-plus-b/);
    expect(shown.stdout).toMatch(/spring-sum/);
  });

  it("reads a contest's start without an offset in its time zone and counts the duration from it", async () => {
    const made = await ok('contest', 'import', join(work, 'spring'), '--slug', 'winter', '--time-zone', 'Europe/Berlin', '--start', '2026-12-01T09:00', '--duration', '180');
    expect(made.activity).toMatchObject({ timeZone: 'Europe/Berlin', startDate: '2026-12-01T08:00:00.000Z', endDate: '2026-12-01T11:00:00.000Z' });
    expect(made.series).toMatchObject({ startDate: '2026-12-01T08:00:00.000Z', endDate: '2026-12-01T11:00:00.000Z' });
    const shown = await ctl('activities', 'show', 'winter');
    expect(shown.stdout).toMatch(/start\s*│\s*2026-12-01 09:00:00\+01:00/);
    expect(shown.stdout).toMatch(/end\s*│\s*2026-12-01 12:00:00\+01:00/);
  });

  it('refuses a CSV with a malformed line, naming it, and creates nobody', async () => {
    const csv = join(work, 'bad.csv');
    writeFileSync(csv, 'username,firstName,lastName,email\nann,Ann,Lee,ann@example.com\nbob,Bob,Ray,not-an-address\ncid,Cid\n');
    const r = await ctl('users', 'import', csv, '--activity', 'spring');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/line 3: email "not-an-address"/);
    expect(r.stderr).toMatch(/line 4: 2 fields, the header has 4/);
    expect(r.stderr).toMatch(/nothing was created/);
    expect(await admin.call(ops.lookupUsers, { query: { q: 'ann' } })).toEqual([]);
    expect(existsSync(join(work, 'bad-credentials.csv'))).toBe(false);
  });

  it('imports participants from a CSV: accounts made, credentials written 0600, enrolled', async () => {
    const csv = join(work, 'pupils.csv');
    writeFileSync(csv, 'username,firstName,lastName,email\r\nann,Ann,Lee,ann@example.com\r\nbob,"Bob, Jr.",Ray,\r\ncid,,,\r\n');
    const r = await ok('users', 'import', csv, '--activity', 'spring');
    const out = join(work, 'pupils-credentials.csv');
    expect(r.credentialsFile).toBe(out);
    expect(r.created.map((u: { username: string }) => u.username)).toEqual(['ann', 'bob', 'cid']);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const written = readFileSync(out, 'utf8');
    expect(written.startsWith('\uFEFF')).toBe(true);
    const [head, ...lines] = written.slice(1).trim().split(/\r\n/);
    expect(head).toBe('username,password,firstName,lastName,email,userId,usernameInFile');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^bob,[^,]+,"Bob, Jr.",Ray,,/);
    for (const line of lines) {
      const [username, password] = line.split(',');
      const c = await j.signIn({ username: username!, password: password! });
      expect((await c.call(ops.getActivity, { params: { idOrSlug: 'spring' } })).enrolled).toBe(true);
    }
    // the same file again: every account exists and is enrolled, so nothing is made and the
    // credentials file is left as it was
    const again = await ctl('users', 'import', csv, '--activity', 'spring');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/3 accounts of \S+pupils\.csv exist already, 3 of them in spring/);
    expect(again.stdout).toMatch(/3 accounts were in spring already\.\nNo new accounts: no credentials file was written\./);
    expect(readFileSync(out, 'utf8')).toBe(written);
    // one new line: the credentials file of the first import is never overwritten, and nothing is made
    writeFileSync(csv, 'username,firstName,lastName,email\r\nann,Ann,Lee,ann@example.com\r\ndan,Dan,Fox,\r\n');
    const more = await ctl('users', 'import', csv, '--activity', 'spring');
    expect(more.status).toBe(1);
    expect(more.stderr).toMatch(/pupils-credentials\.csv exists/);
    expect(await admin.call(ops.lookupUsers, { query: { q: 'dan' } })).toEqual([]);
  });

  it('refuses a broken package with the server reason and leaves no problem behind', async () => {
    const before = await problemSlugs();
    const r = await ctl('problems', 'import', join(work, 'broken'), '--slug', 'broken');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/not a valid ICPC problem package: data\/ is missing \(422 package\.invalid\)/);
    expect(await problemSlugs()).toEqual(before);
  });

  it('imports a package whose statement is LaTeX: the server converts it, judgectl sends no statement of its own', async () => {
    const dir = join(work, 'climb');
    writeTree(dir, { ...legacyPackage('Climb'), 'problem_statement/problem.en.tex': '\\problemname{Climb}\nGo up $n$ steps.\n', 'problem_statement/problem.en.pdf': '%PDF-1.4\n' });
    const r = await ok('problems', 'import', dir, '--slug', 'climb');
    const [item, ...more] = await admin.call(ops.getProblemVersionContent, { params: { problemId: r.problem.id, versionId: r.version.id } });
    expect(more).toEqual([]);
    expect([item!.name, item!.language, item!.format]).toEqual(['statement.en.html', 'en', 'html']);
    const html = Buffer.from(await admin.call(ops.downloadFile, { params: { id: item!.fileId } })).toString('utf8');
    expect(html).toContain('<h1>Climb</h1>');
    expect(html).toContain('class="katex"');
    const shown = await ctl('problems', 'import', dir, '--slug', 'climb-again');
    expect(shown.stdout).toMatch(/statement\s*│\s*statement\.en\.html\s*│/);
  });

  it('shows a judged submission and the standings', async () => {
    const [, ann] = readFileSync(join(work, 'pupils-credentials.csv'), 'utf8').trim().split(/\r\n/);
    const [username, password] = ann!.split(',');
    const pupil = await j.signIn({ username: username!, password: password! });
    const code = 'print(sum(map(int, input().split())))\n';
    const form = codeForm(code, 'a.py');
    const submitted = await pupil.call(ops.submit, { params: { idOrSlug: 'spring', problemSlug: 'a-plus-b' }, form });

    // a minimal runner: registered, approved with judgectl by a fingerprint prefix, judges AC
    const runner = new RunnerClient({ baseUrl: j.url, key: generateRunnerKey() });
    await runner.register({ name: 'lab-1', problemTypes: ['standard-io@1'] });
    expect((await ok('runners', 'list', '--state', 'pendingApproval')).map((x: { name: string }) => x.name)).toEqual(['lab-1']);
    expect((await ok('runners', 'approve', runner.fingerprint.slice(0, 8))).state).toBe('approved');
    const job = await runner.claim({ waitSeconds: 5 });
    expect(job?.submissionId).toBe(submitted.id);
    await runner.report(job!, { verdict: 'AC', score: 1, maxScore: 1 });

    const list = await ok('submissions', 'list', '--activity', 'spring', '--problem', 'a-plus-b', '--user', 'ann');
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ id: submitted.id, state: 'completed', verdict: 'AC', userName: 'Ann Lee' });
    // the time window: with an offset as written, without one in the activity's zone; and the search
    const at = list.items[0].submittedAt as string;
    const ids = async (...args: string[]) => ((await ok('submissions', 'list', '--activity', 'spring', ...args)).items as { id: string }[]).map((s) => s.id);
    expect(await ids('--since', at)).toEqual([submitted.id]);
    expect(await ids('--before', at)).toEqual([]);
    expect(await ids('--since', '2100-01-01T00:00')).toEqual([]);
    expect(await ids('--before', '2100-01-01T00:00', '--search', 'ann')).toEqual([submitted.id]);
    expect(await ids('--search', 'nobody-by-this-name')).toEqual([]);
    const bare = await ctl('submissions', 'list', '--since', '2026-11-22T09:00');
    expect(bare.status).not.toBe(0);
    expect(bare.stderr).toContain("--since without an offset needs --activity");

    const standings = await ok('ranking', 'spring');
    expect(standings.rows[0]).toMatchObject({ rank: 1, userName: 'Ann Lee', solved: 1 });
    const table = await ctl('ranking', 'spring');
    expect(table.status).toBe(0);
    const annRow = table.stdout.split('\n').find((l) => l.includes('Ann Lee'));
    expect(annRow).toMatch(/│\s*1\s*│\s*Ann Lee\s*│\s*1\s*│\s*\d+\s*│\s*1\/\d+\s*│/);
    // the final standings for a spreadsheet: a header, then one CSV record per participant
    const csv = await ctl('ranking', 'spring', '--csv');
    expect(csv.status).toBe(0);
    const [head, annLine] = csv.stdout.split('\r\n');
    expect(head).toBe('\uFEFFrank,username,name,userId,solved,penalty,a-plus-b solved,a-plus-b tries,a-plus-b minute,sum solved,sum tries,sum minute');
    expect(annLine).toMatch(new RegExp(`^1,ann,Ann Lee,${standings.rows[0].userId},1,\\d+,1,1,\\d+,0,0,$`));
    expect((await ctl('ranking', 'spring', '--csv', '--json')).stderr).toMatch(/cannot be used with/);
  });
});
