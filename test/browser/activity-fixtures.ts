import { ops, type Activity } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { zipOf } from '../../packages/server/test/zips.js';

/**
 * The world of the activity pages' browser tests, made through the API as an organiser would:
 * contests by join policy, a problem from a real package zip with its samples and statements in
 * two languages with math, and participants with their issued passwords.
 */

export const JOIN_PASSWORD = 'lab-room-42';

export const STATEMENT_EN = [
  '# Sum of two',
  '',
  'Given integers $a$ and $b$, print $a + b$. Squares stay non-negative: $x^2 \\ge 0$.',
  '',
  '$$\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}$$',
  '',
  'Raw <b>HTML</b> <script>window.statementScriptRan = true</script> is shown as text.',
  '',
].join('\n');

export const STATEMENT_DE = ['# Summe zweier Zahlen', '', 'Gegeben sind ganze Zahlen $a$ und $b$; gib $a + b$ aus.', ''].join('\n');

export const SAMPLE_IN = '1 2\n';
export const SAMPLE_ANS = '3\n';

export interface Participant {
  username: string;
  password: string;
  client: JudgeClient;
}

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The server's time now, read from GET /health (the test machine's clock may differ). */
export async function serverNow(admin: JudgeClient): Promise<number> {
  return Date.parse((await admin.call(ops.health)).serverTime);
}

/** A participant account made by the administrator, with a client of their own (bearer) for what the test sets up. */
export async function participant(admin: JudgeClient, baseUrl: string, username: string): Promise<Participant> {
  const issued = await admin.call(ops.createUser, { body: { username } });
  const client = new JudgeClient({ baseUrl });
  await client.login(issued.username, issued.password);
  return { username: issued.username, password: issued.password, client };
}

/** A problem whose first version is a package zip with one sample, and Markdown statements in English and German. */
export async function sumProblem(admin: JudgeClient, slug: string): Promise<string> {
  const zip = await zipOf({
    'problem.yaml': 'name: Sum\nlimits:\n  time_limit: 2\n  memory: 256\n',
    'data/sample/1.in': SAMPLE_IN,
    'data/sample/1.ans': SAMPLE_ANS,
    'data/secret/1.in': '5 5\n',
    'data/secret/1.ans': '10\n',
  });
  const problem = await admin.call(ops.createProblem, { body: { slug, name: 'Sum', type: 'standard-io@1' } });
  const pkg = await admin.upload(`${slug}.zip`, zip, 'application/zip');
  const en = await admin.upload('problem.en.md', Buffer.from(STATEMENT_EN), 'text/markdown');
  const de = await admin.upload('problem.de.md', Buffer.from(STATEMENT_DE), 'text/markdown');
  await admin.call(ops.createProblemVersion, {
    params: { problemId: problem.id },
    body: { package: { fileId: pkg.id }, statements: [{ fileId: en.id, language: 'en' }, { fileId: de.id, language: 'de' }] },
  });
  return problem.id;
}

export interface ContestOptions {
  slug: string;
  name: string;
  joinPolicy: 'open' | 'password';
  /** When its one series starts and ends, in ms of server time. */
  startsAt: number;
  endsAt: number;
  /** Problems to attach to the series by slug. */
  problems?: Record<string, string>;
}

/** A published contest with one series over its whole time. */
export async function contest(admin: JudgeClient, o: ContestOptions): Promise<Activity> {
  const act = await admin.call(ops.createActivity, {
    body: {
      slug: o.slug,
      name: o.name,
      type: 'contest@1',
      rankingType: 'icpc',
      timeZone: 'Europe/Berlin',
      joinPolicy: o.joinPolicy,
      unlisted: false,
      startDate: iso(o.startsAt),
      endDate: iso(o.endsAt),
      ...(o.joinPolicy === 'password' ? { joinPassword: JOIN_PASSWORD } : {}),
    },
  });
  const series = await admin.call(ops.createSeries, {
    params: { idOrSlug: act.slug },
    body: { slug: 'main', name: 'Main round', startDate: iso(o.startsAt), endDate: iso(o.endsAt), rankingFreezeAt: iso(o.endsAt - 30 * MINUTE) },
  });
  for (const [slug, problemId] of Object.entries(o.problems ?? {})) {
    await admin.call(ops.attachProblem, { params: { seriesId: series.id }, body: { problemId, slug } });
  }
  return act;
}

export { MINUTE };
