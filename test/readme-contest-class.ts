import { ops, type Ranking } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeForm } from '../packages/server/test/support/forms.js';
import { until } from '../packages/server/test/support/wait.js';
import { parseCsv } from '@judge/sdk';

/**
 * The class of the README's contest: 30 students in `class.csv`, who sign in from one address (a lab
 * behind one NAT), submit, ask and print through the API as their browsers would.
 */

export const CLASS_SIZE = 30;
const EXAMPLES = new URL('../examples/spring-contest/', import.meta.url);
const source = (path: string) => readFileSync(new URL(path, EXAMPLES), 'utf8');

export function writeClassCsv(dir: string): void {
  const rows = Array.from({ length: CLASS_SIZE }, (_, i) => `s${String(i + 1).padStart(2, '0')},Student,${i + 1},`);
  writeFileSync(join(dir, 'class.csv'), `username,firstName,lastName,email\n${rows.join('\n')}\n`);
}

export interface Student {
  username: string;
  client: JudgeClient;
}

/** Every student of `class-credentials.csv` signed in, all at once, as a lab does at the start. */
export async function signInClass(url: string, dir: string): Promise<Student[]> {
  const [head, ...records] = parseCsv(readFileSync(join(dir, 'class-credentials.csv'), 'utf8'));
  const col = (name: string) => head!.fields.indexOf(name);
  return Promise.all(
    records.map(async (r) => {
      const client = new JudgeClient({ baseUrl: url });
      await client.login(r.fields[col('username')]!, r.fields[col('password')]!);
      return { username: r.fields[col('username')]!, client };
    }),
  );
}

export async function submit(s: Student, problemSlug: string, file: string): Promise<string> {
  const name = file.split('/').pop()!;
  const sub = await s.client.call(ops.submit, { params: { idOrSlug: 'spring', problemSlug }, form: codeForm(source(file), name) });
  return sub.id;
}

/** Waits until each of these submissions has a verdict; answers the verdicts by id. */
export async function verdicts(ids: Map<string, Student>, ms = 240_000): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await until(
    `${ids.size} verdicts`,
    async () => {
      for (const [id, who] of ids) {
        if (out.has(id)) continue;
        const d = await who.client.call(ops.getOwnSubmission, { params: { idOrSlug: 'spring', id } });
        if (d.state === 'completed' || d.state === 'failed') out.set(id, d.verdict ?? d.state);
      }
      return out.size === ids.size;
    },
    ms,
    250,
  );
  return out;
}

/**
 * The contest's first hour: everybody solves hello, ten students get sum wrong (an int overflows),
 * five solve it; one asks a question, one asks for a printout of their submission.
 */
export async function firstHour(students: Student[]): Promise<{ verdicts: Map<string, string>; wrong: string }> {
  const ids = new Map<string, Student>();
  for (const s of students) ids.set(await submit(s, 'hello', 'hello/submissions/accepted/hello.py'), s);
  let wrong = '';
  for (const s of students.slice(0, 10)) {
    wrong = await submit(s, 'sum', 'sum/submissions/wrong_answer/overflow.cpp');
    ids.set(wrong, s);
  }
  for (const s of students.slice(0, 5)) ids.set(await submit(s, 'sum', 'sum/submissions/accepted/sum.py'), s);
  const asker = students[7]!;
  const act = await asker.client.call(ops.getActivity, { params: { idOrSlug: 'spring' } });
  await asker.client.call(ops.askQuestion, { params: { idOrSlug: act.id }, body: { topic: 'Sum', body: 'Can a + b exceed 32 bits?' } });
  await students[9]!.client.call(ops.requestPrintout, { params: { idOrSlug: 'spring' }, body: { submissionId: wrong } });
  return { verdicts: await verdicts(ids), wrong };
}

export const ranking = (s: Student): Promise<Ranking> => s.client.call(ops.getRanking, { params: { idOrSlug: 'spring' }, query: {} });
