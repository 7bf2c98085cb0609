import { createReadStream } from 'node:fs';
import { asc, eq, inArray, or } from 'drizzle-orm';
import yazl from 'yazl';
import {
  activities,
  attempts,
  files,
  grants,
  printouts,
  problems,
  questions,
  roles,
  series,
  seriesProblems,
  sessions,
  submissionFiles,
  submissions,
  userMerges,
  users,
} from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import { compact } from '../../util.js';
import type { BlobStore } from '../files/index.js';

const README = `What the judge holds about your account, as of the time in account.json ("exportedAt").

account.json      your profile: login, names, address, when it was made and last used
sessions.json     where you signed in (browser, address, times)
grants.json       your roles, system-wide and in each activity
submissions.json  every submission with its problem, verdict, score and judging attempts
submissions/      the files of each submission: ACTIVITY/SUBMITTED-AT_ID/FILE
questions.json    the questions you asked, with their answers
printouts.json    your print requests (their sources are kept a week after printing)
merges.json       accounts merged into yours, or yours into another

Never in it: your password (only a one-way hash is kept), your two-factor key, session tokens.
`;

type Source = { path: string; sha256: string };

type UserRow = typeof users.$inferSelect;

/** The profile: what the account page shows, never a secret. */
function profileOf(u: UserRow, now: Date) {
  return compact({
    userId: u.id,
    username: u.username,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    emailConfirmed: u.emailConfirmed,
    origin: u.origin,
    isTemporary: u.isTemporary,
    expiresAt: u.expiresAt,
    approvedAt: u.approvedAt,
    blockedAt: u.blockedAt,
    blockedReason: u.blockedReason,
    twoFactorEnabled: u.twoFactorEnabled,
    createdAt: u.createdAt,
    lastSeenAt: u.lastSeenAt,
    exportedAt: now.toISOString(),
  });
}

/** The submissions with their attempts and files, and where in the zip each file's bytes go. */
async function submissionsOf(q: Q, userId: string): Promise<{ list: unknown[]; sources: Source[] }> {
  const subs = await q
    .select({ s: submissions, activitySlug: activities.slug, seriesName: series.name, problemSlug: seriesProblems.slug, problemName: problems.name })
    .from(submissions)
    .innerJoin(activities, eq(activities.id, submissions.activityId))
    .innerJoin(series, eq(series.id, submissions.seriesId))
    .innerJoin(seriesProblems, eq(seriesProblems.id, submissions.seriesProblemId))
    .innerJoin(problems, eq(problems.id, seriesProblems.problemId))
    .where(eq(submissions.userId, userId))
    .orderBy(asc(submissions.submittedAt), asc(submissions.id));
  const ids = subs.map((r) => r.s.id);
  const attemptRows = ids.length ? await q.select().from(attempts).where(inArray(attempts.submissionId, ids)).orderBy(asc(attempts.submissionId), asc(attempts.attempt)) : [];
  const fileRows = ids.length
    ? await q.select({ submissionId: submissionFiles.submissionId, name: submissionFiles.fileName, sha256: files.sha256, sizeBytes: files.sizeBytes }).from(submissionFiles).innerJoin(files, eq(files.id, submissionFiles.fileId)).where(inArray(submissionFiles.submissionId, ids))
    : [];
  const sources: Source[] = [];
  const list = subs.map(({ s, ...where }) => {
    const dir = `submissions/${safe(where.activitySlug)}/${s.submittedAt.replace(/[:.]/g, '-')}_${s.id}`;
    const own = fileRows.filter((f) => f.submissionId === s.id).map((f) => ({ name: f.name, sizeBytes: f.sizeBytes, sha256: f.sha256, path: `${dir}/${safe(f.name)}` }));
    sources.push(...own.map((f) => ({ path: f.path, sha256: f.sha256 })));
    return compact({
      id: s.id,
      activity: where.activitySlug,
      series: where.seriesName,
      problem: where.problemSlug,
      problemName: where.problemName,
      submittedAt: s.submittedAt,
      state: s.state,
      verdict: s.verdict,
      score: s.score,
      maxScore: s.maxScore,
      excluded: s.excluded,
      exclusionReason: s.exclusionReason,
      ipAddress: s.ipAddress,
      files: own,
      attempts: attemptRows
        .filter((a) => a.submissionId === s.id)
        .map((a) => compact({ attempt: a.attempt, state: a.state, verdict: a.verdict, score: a.score, maxScore: a.maxScore, createdAt: a.createdAt, finishedAt: a.finishedAt })),
    });
  });
  return { list, sources };
}

/** Sessions, grants, questions, printouts and merges: one list each. */
async function recordsOf(q: Q, userId: string) {
  const sessionRows = await q.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(asc(sessions.startedAt));
  const grantRows = await q
    .select({ role: roles.name, permissions: roles.permissions, activitySlug: activities.slug, activityName: activities.name, createdAt: grants.createdAt })
    .from(grants)
    .innerJoin(roles, eq(roles.id, grants.roleId))
    .leftJoin(activities, eq(activities.id, grants.activityId))
    .where(eq(grants.userId, userId))
    .orderBy(asc(grants.createdAt));
  const asked = await q.select({ qn: questions, activitySlug: activities.slug }).from(questions).innerJoin(activities, eq(activities.id, questions.activityId)).where(eq(questions.authorUserId, userId)).orderBy(asc(questions.createdAt));
  const prints = await q.select({ p: printouts, activitySlug: activities.slug }).from(printouts).innerJoin(activities, eq(activities.id, printouts.activityId)).where(eq(printouts.userId, userId)).orderBy(asc(printouts.requestedAt));
  const merges = await q.select().from(userMerges).where(or(eq(userMerges.sourceUserId, userId), eq(userMerges.targetUserId, userId))).orderBy(asc(userMerges.mergedAt));
  return {
    'sessions.json': sessionRows.map((s) =>
      compact({ kind: s.kind, startedAt: s.startedAt, lastRequestAt: s.lastRequestAt, ipAddress: s.ipAddress, userAgent: s.userAgent, expiresAt: s.expiresAt, endedAt: s.endedAt, endReason: s.endReason }),
    ),
    'grants.json': grantRows.map((g) => compact({ role: g.role, permissions: g.permissions, activity: g.activitySlug, activityName: g.activityName, since: g.createdAt })),
    'questions.json': asked.map(({ qn, activitySlug }) =>
      compact({ activity: activitySlug, topic: qn.topic, body: qn.body, askedAt: qn.createdAt, answer: qn.answerBody, answeredAt: qn.answeredAt, published: qn.isPublished }),
    ),
    'printouts.json': prints.map(({ p, activitySlug }) =>
      compact({ activity: activitySlug, title: p.title, fileName: p.fileName, sizeBytes: p.sizeBytes, state: p.state, requestedAt: p.requestedAt, resolvedAt: p.resolvedAt, source: p.source }),
    ),
    'merges.json': merges.map((m) => compact({ role: m.sourceUserId === userId ? 'merged away' : 'merged into this account', mergedAt: m.mergedAt, undoneAt: m.undoneAt, final: !!m.sourceAnonymisedAt })),
  };
}

/** One user's data, read in one transaction so the parts agree with each other. */
async function gather(q: Q, userId: string, now: Date) {
  const [u] = await q.select().from(users).where(eq(users.id, userId));
  if (!u) return undefined;
  const { list, sources } = await submissionsOf(q, userId);
  return { parts: { 'account.json': profileOf(u, now), 'submissions.json': list, ...(await recordsOf(q, userId)) }, sources, username: u.username };
}

/** A name as a zip entry segment: no path separators, no dot-only names, nothing a file system refuses. */
function safe(name: string): string {
  const s = name.replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_').trim();
  return !s || /^\.+$/.test(s) ? '_' : s.slice(0, 200);
}

/**
 * The caller's export as a zip stream: the JSON parts are read in one transaction, the sources are
 * streamed from the blob store after it, so a large export holds no transaction open.
 */
export async function accountExport(read: <T>(fn: (q: Q) => Promise<T>) => Promise<T>, blobs: BlobStore, userId: string, now: Date) {
  const data = await read((q) => gather(q, userId, now));
  if (!data) return undefined;
  const zip = new yazl.ZipFile();
  const mtime = now;
  zip.addBuffer(Buffer.from(README), 'README.txt', { mtime });
  for (const [name, value] of Object.entries(data.parts)) zip.addBuffer(Buffer.from(`${JSON.stringify(value, null, 2)}\n`), name, { mtime });
  for (const s of data.sources) zip.addReadStream(createReadStream(blobs.pathOf(s.sha256)), s.path, { mtime });
  zip.end();
  return { stream: zip.outputStream, fileName: `judge-account-${safe(data.username)}-${now.toISOString().slice(0, 10)}.zip` };
}
