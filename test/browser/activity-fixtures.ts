import { ops, type Activity } from '@judge/contract';
import { crc32, deflateSync } from 'node:zlib';
import { JudgeClient } from '@judge/sdk';
import { zipOf } from '../../packages/server/test/zips.js';

/**
 * The world of the activity pages' browser tests, made through the API as an organiser would:
 * contests by join policy, a problem from a real package zip with its samples and statements in
 * two languages with math, and participants with their issued passwords.
 */

export const JOIN_PASSWORD = 'lab-room-42';

/** The English statement: LaTeX as ICPC packages hold it, converted to HTML by the server at upload. */
export const STATEMENT_EN = String.raw`\problemname{Sum of two}
\illustration{0.3}{pic.png}{Two piles of stones}
Given integers $a$ and $b$, print $a + b$. Squares stay non-negative: $x^2 \ge 0$.
$$\sum_{i=1}^{n} i = \frac{n(n+1)}{2}$$
\section*{Input}
One line with $a$ and $b$.
\section*{Output}
Their sum.
`;

/** The German one in Markdown with math, rendered in the browser; its raw HTML must stay text. */
export const STATEMENT_DE = [
  '# Summe zweier Zahlen',
  '',
  'Gegeben sind ganze Zahlen $a$ und $b$; gib $a + b$ aus.',
  '',
  'Rohes <b>HTML</b> <script>window.statementScriptRan = true</script> bleibt Text.',
  '',
].join('\n');

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

/** A PNG of width × height in two colours, made here so the statement's image is a real one. */
export function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) rows.push(...(x < width / 2 ? [200, 60, 40] : [40, 90, 200]));
  }
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.from(rows))), chunk('IEND', Buffer.alloc(0))]);
}

/** A problem from a package zip: a sample, limits, and its statements in problem_statement/ (LaTeX with an image, and Markdown). */
export async function sumProblem(admin: JudgeClient, slug: string): Promise<string> {
  const zip = await zipOf({
    'problem.yaml': 'name: Sum\nlimits:\n  time_limit: 2\n  memory: 256\n',
    'problem_statement/problem.en.tex': STATEMENT_EN,
    'problem_statement/problem.de.md': STATEMENT_DE,
    'problem_statement/pic.png': png(120, 60),
    'data/sample/1.in': SAMPLE_IN,
    'data/sample/1.ans': SAMPLE_ANS,
    'data/secret/1.in': '5 5\n',
    'data/secret/1.ans': '10\n',
  });
  const problem = await admin.call(ops.createProblem, { body: { slug, name: 'Sum', type: 'standard-io@1' } });
  const pkg = await admin.upload(`${slug}.zip`, zip, 'application/zip');
  await admin.call(ops.createProblemVersion, { params: { problemId: problem.id }, body: { package: { fileId: pkg.id } } });
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
