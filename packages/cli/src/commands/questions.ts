import { ops, type Question } from '@judge/contract';
import { JudgeClient } from '@judge/sdk';
import type { Command } from 'commander';
import { api, signedIn } from '../client.js';
import { CliError } from '../errors.js';
import { activityZones } from '../activity-zones.js';
import { emit, note, plural, table, type JsonOption } from '../output.js';
import { inZone } from '../zoned-time.js';
import { allPages, resolveActivity, resolveSeries } from '../resolve.js';
import { positive, sub } from './common.js';
import { readPassword } from './session.js';
import { USER_AGENT } from '../version.js';

const clip = (s: string, n = 60) => (s.length > n ? `${s.slice(0, n - 1)}…` : s).replace(/\s+/g, ' ');

/** Questions in a table, each time in its activity's zone. */
async function questionsTable(c: JudgeClient, list: Question[]): Promise<string> {
  const zone = await activityZones(c, list.map((q) => q.activityId));
  return table(
    ['id', 'activity', 'kind', 'asked', 'by', 'about', 'topic', 'question', 'answer', 'published'],
    list.map((q) => [q.id, q.activitySlug, q.kind, inZone(q.createdAt, zone(q.activityId)), q.authorName, q.problemSlug ?? q.seriesName, clip(q.topic, 30), clip(q.body), q.answer ? clip(q.answer.body, 40) : '', q.isPublished]),
  );
}

type ListOptions = JsonOption & { activity?: string; unanswered?: boolean; search?: string; watch?: boolean; passwordFile?: string };

/**
 * Follows the socket and prints each new question as it arrives, with a bell. The socket takes
 * only a session cookie (decisions §10), so watching signs in once more with the password and ends
 * that session when it stops.
 */
async function watch(o: ListOptions, activityId: string | undefined, seen: Set<string>): Promise<void> {
  const { creds } = await signedIn();
  const browser = new JudgeClient({ baseUrl: creds.server, userAgent: USER_AGENT });
  await browser.loginWithCookie(creds.username, await readPassword(o.passwordFile), false);
  const stream = browser.events();
  await stream.opened;
  note('Watching for new questions (Ctrl-C stops).');
  const stop = async () => {
    stream.close();
    await browser.call(ops.logout).catch(() => undefined);
    process.exit(0);
  };
  let printing = Promise.resolve();
  const zones = new Map<string, (activityId: string) => string>();
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  stream.socket.on('message', (raw) => {
    let f: { type?: string; data?: { question?: Question } };
    try {
      f = JSON.parse(raw.toString()) as typeof f;
    } catch {
      return;
    }
    const q = f.data?.question;
    if (f.type !== 'questionChanged' || !q || q.kind !== 'question' || seen.has(q.id)) return;
    if (activityId && q.activityId !== activityId) return;
    seen.add(q.id);
    // one at a time, in the order they came, each time in its activity's zone
    printing = printing.then(async () => {
      if (!o.json && !zones.has(q.activityId)) zones.set(q.activityId, await activityZones(browser, [q.activityId]).catch(() => () => 'UTC'));
      printQuestion(o, q, zones.get(q.activityId)?.(q.activityId) ?? 'UTC');
    });
  });
  await stream.closed;
  throw new CliError('the event socket closed');
}

/** One new question on a line, with a terminal bell (with --json, the question as one JSON line). */
function printQuestion(o: ListOptions, q: Question, zone: string): void {
  const line = o.json ? JSON.stringify(q) : `\x07${inZone(q.createdAt, zone)}  ${q.activitySlug}  ${q.authorName ?? ''}  ${q.problemSlug ?? q.seriesName ?? ''}  ${q.topic}: ${clip(q.body, 200)}  (${q.id})`;
  process.stdout.write(`${line}\n`);
}

export function questionsCommands(program: Command): void {
  const questions = program.command('questions').description("Participants' questions: list, answer, publish, delete");

  sub(questions, 'list', 'List questions and announcements of the activities you answer for, newest first')
    .option('--activity <activity>', 'only this activity (slug or id)')
    .option('--unanswered', 'only questions without an answer')
    .option('--search <text>', 'only those whose text, answer or asker matches')
    .option('--watch', 'then keep printing new questions as they are asked, with a terminal bell')
    .option('--password-file <file>', 'for --watch: the password (else JUDGECTL_PASSWORD, else asked)')
    .action(async (o: ListOptions) => {
      const c = await api();
      const activityId = o.activity ? (await resolveActivity(c, o.activity)).id : undefined;
      const query = { ...(activityId ? { activityId } : {}), ...(o.unanswered ? { unansweredOnly: 'true' as const } : {}), ...(o.search ? { search: o.search } : {}) };
      const all = await allPages((page, pageSize) => c.call(ops.listQuestions, { query: { page, pageSize, ...query } }));
      if (o.json && o.watch) for (const q of all) process.stdout.write(`${JSON.stringify(q)}\n`);
      else {
        const text = o.json ? '' : await questionsTable(c, all);
        emit(o, all, () => `${text}\n${plural(all.length, 'question')}`);
      }
      if (o.watch) await watch(o, activityId, new Set(all.map((q) => q.id)));
    });

  sub(questions, 'answer <id> [text]', 'Answer a question with TEXT or with a canned answer (--canned N, from 1)')
    .option('--canned <n>', 'the Nth canned answer', positive)
    .option('--publish', 'publish it with the answer to every participant')
    .action(async (id: string, text: string | undefined, o: JsonOption & { canned?: number; publish?: boolean }) => {
      const c = await api();
      let body = text;
      if (o.canned !== undefined) {
        const { answers } = await c.call(ops.getCannedAnswers);
        body = answers[o.canned - 1];
        if (body === undefined) throw new CliError(`there are ${answers.length} canned answers: ${answers.map((a, i) => `${i + 1}. ${a}`).join(' ')}`);
      }
      if (!body) throw new CliError('give the answer TEXT or --canned N');
      const q = await c.call(ops.answerQuestion, { params: { id }, body: { body, ...(o.publish ? { publish: true } : {}) } });
      emit(o, q, () => `Answered "${clip(q.topic)}"${q.isPublished ? ' and published it' : ''}: ${q.answer?.body ?? ''}`);
    });

  sub(questions, 'canned [answers...]', 'List the canned answers staff pick from; given ANSWERS, replace them with these, in this order')
    .action(async (answers: string[], o: JsonOption) => {
      const c = await api();
      const now = answers.length ? await c.call(ops.setCannedAnswers, { body: { answers } }) : await c.call(ops.getCannedAnswers);
      emit(o, now, () => `${answers.length ? 'The canned answers are now:\n' : ''}${now.answers.map((a, i) => `${i + 1}. ${a}`).join('\n')}`);
    });

  sub(questions, 'publish <id>', 'Publish a question with its answer to every participant (--withdraw takes it back)')
    .option('--withdraw', 'unpublish it')
    .action(async (id: string, o: JsonOption & { withdraw?: boolean }) => {
      const q = await (await api()).call(ops.setQuestionPublished, { params: { id }, body: { published: !o.withdraw } });
      emit(o, q, () => `${q.isPublished ? 'Published' : 'Withdrew'} "${clip(q.topic)}".`);
    });

  sub(questions, 'delete <id>', 'Delete a question or an announcement').action(async (id: string, o: JsonOption) => {
    await (await api()).call(ops.deleteQuestion, { params: { id } });
    emit(o, { deleted: id }, () => `Deleted ${id}.`);
  });

  sub(program, 'announce <activity> <text>', 'Announce TEXT to every member of an activity (optionally about a series or a problem)')
    .option('--topic <topic>', 'its title (default: the start of the text)')
    .option('--series <series>', 'about this series (slug or id)')
    .option('--problem <problem>', 'about this problem of the activity (its slug)')
    .action(async (activity: string, text: string, o: JsonOption & { topic?: string; series?: string; problem?: string }) => {
      const c = await api();
      const a = await resolveActivity(c, activity);
      let seriesId: string | undefined;
      let problemId: string | undefined;
      if (o.series) seriesId = (await resolveSeries(c, a.slug, o.series)).id;
      if (o.problem) {
        const all = await c.call(ops.listManagedSeries, { params: { idOrSlug: a.slug } });
        const found = all.flatMap((s) => s.problems).find((p) => p.slug.toLowerCase() === o.problem!.toLowerCase() || p.id === o.problem);
        if (!found) throw new CliError(`activity ${a.slug} has no problem ${o.problem}`);
        problemId = found.id;
      }
      const q = await c.call(ops.createAnnouncement, {
        params: { idOrSlug: a.slug },
        body: { topic: o.topic ?? clip(text, 80), body: text, ...(seriesId ? { seriesId } : {}), ...(problemId ? { problemId } : {}) },
      });
      emit(o, q, () => `Announced to ${a.slug}: ${q.topic} (${q.id}).`);
    });
}
