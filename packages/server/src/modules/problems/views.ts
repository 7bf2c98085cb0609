import type { Problem, ProblemVersion, ProblemVersionContentItem } from '@judge/contract';
import { effectiveLimits, type LimitFigures, type NamedLimits } from '@judge/problem-package';
import type { z } from 'zod';
import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Q } from '../../db/storage.js';
import { files, problemShares, problemVersionFiles, problemVersions, seriesProblems, users } from '../../db/schema.js';
import { compact, groupBy } from '../../util.js';
import { displayName } from '../users/index.js';
import type { ProblemRow, VersionRow } from './queries.js';
import { formatOfName } from './statements/convert.js';
import { isStatementRole } from './version-files.js';

export type ContentItem = z.infer<typeof ProblemVersionContentItem>;

/** Display names of users by id, read in one query. */
async function namesOf(q: Q, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  if (!wanted.length) return new Map();
  const rows = await q.select({ id: users.id, username: users.username, firstName: users.firstName, lastName: users.lastName }).from(users).where(inArray(users.id, wanted));
  return new Map(rows.map((u) => [u.id, displayName(u)]));
}

/**
 * Problem views for a page of rows, with a fixed number of queries whatever the page size:
 * version numbers, assignment counts, shares and owner names are each read for all rows at once.
 */
export async function toProblems(q: Q, rows: ProblemRow[]): Promise<Problem[]> {
  if (!rows.length) return [];
  const ids = rows.map((p) => p.id);
  const versionRows = await q
    .select({ problemId: problemVersions.problemId, newest: sql<number>`max(${problemVersions.version})`.mapWith(Number), count: sql<number>`count(*)`.mapWith(Number) })
    .from(problemVersions)
    .where(inArray(problemVersions.problemId, ids))
    .groupBy(problemVersions.problemId);
  const versions = new Map(versionRows.map((r) => [r.problemId, r]));
  const attachedRows = await q
    .select({ problemId: seriesProblems.problemId, count: sql<number>`count(*)`.mapWith(Number) })
    .from(seriesProblems)
    .where(inArray(seriesProblems.problemId, ids))
    .groupBy(seriesProblems.problemId);
  const attached = new Map(attachedRows.map((r) => [r.problemId, r.count]));
  const shares = groupBy(await q.select().from(problemShares).where(inArray(problemShares.problemId, ids)).orderBy(asc(problemShares.userId)), (s) => s.problemId);
  const owners = await namesOf(q, rows.map((p) => p.ownerUserId));
  return rows.map(
    (p) =>
      compact({
        id: p.id,
        slug: p.slug,
        name: p.name,
        type: p.type,
        external: p.external,
        ownerUserId: p.ownerUserId,
        ownerName: p.ownerUserId ? owners.get(p.ownerUserId) : undefined,
        visibility: p.visibility as Problem['visibility'],
        sharedWith: (shares.get(p.id) ?? []).map((s) => s.userId),
        archivedAt: p.archivedAt,
        currentVersion: versions.get(p.id)?.newest ?? 0,
        versionCount: versions.get(p.id)?.count ?? 0,
        attachedCount: attached.get(p.id) ?? 0,
        createdAt: p.createdAt,
      }) as Problem,
  );
}

export async function toProblem(q: Q, row: ProblemRow): Promise<Problem> {
  return (await toProblems(q, [row]))[0]!;
}

/** The file rows of versions joined with what the files table knows of their bytes, by name. */
export async function versionFiles(q: Q, versionIds: string[]) {
  if (!versionIds.length) return [];
  return q
    .select({
      versionId: problemVersionFiles.versionId,
      name: problemVersionFiles.name,
      scope: problemVersionFiles.scope,
      role: problemVersionFiles.role,
      language: problemVersionFiles.language,
      fileId: problemVersionFiles.fileId,
      mimeType: files.mimeType,
      sizeBytes: files.sizeBytes,
      sha256: files.sha256,
    })
    .from(problemVersionFiles)
    .innerJoin(files, eq(files.id, problemVersionFiles.fileId))
    .where(inArray(problemVersionFiles.versionId, versionIds))
    .orderBy(asc(problemVersionFiles.name));
}

export type VersionFileRow = Awaited<ReturnType<typeof versionFiles>>[number];

/**
 * What the package says of itself and, when the instance's maxima cut a figure it asks for, the
 * figure it is judged with (`capped`).
 */
export function packageView(info: VersionRow['packageInfo'], maxima: LimitFigures): ProblemVersion['package'] | null {
  if (!info) return null;
  const e = effectiveLimits(info as NamedLimits, null, { maxima });
  const capped = compact({
    timeLimitSeconds: e.time.asked !== undefined ? e.time.value : undefined,
    memoryMiB: e.memory.asked !== undefined ? e.memory.value : undefined,
    outputMiB: e.output.asked !== undefined ? e.output.value : undefined,
  });
  return (Object.keys(capped).length ? { ...info, capped } : info) as ProblemVersion['package'];
}

export async function toVersions(q: Q, rows: VersionRow[], maxima: LimitFigures): Promise<ProblemVersion[]> {
  const filesOf = groupBy(await versionFiles(q, rows.map((v) => v.id)), (f) => f.versionId);
  const creators = await namesOf(q, rows.map((v) => v.createdBy));
  return rows.map((v) => {
    const own = filesOf.get(v.id) ?? [];
    return compact({
      id: v.id,
      version: v.version,
      createdAt: v.createdAt,
      createdByName: v.createdBy ? creators.get(v.createdBy) : undefined,
      note: v.note,
      props: v.props,
      hasPackage: own.some((f) => f.role === 'package'),
      package: packageView(v.packageInfo, maxima),
      files: own.map((f) => ({
        name: f.name,
        scope: f.scope as ProblemVersion['files'][number]['scope'],
        mimeType: f.mimeType,
        sizeBytes: f.sizeBytes,
        sha256: f.sha256,
        fileId: f.fileId,
      })),
    }) as ProblemVersion;
  });
}

/** Versions of a problem, newest first. */
export function versionRowsOf(q: Q, problemId: string): Promise<VersionRow[]> {
  return q.select().from(problemVersions).where(eq(problemVersions.problemId, problemId)).orderBy(desc(problemVersions.version));
}

/** The statements of one version, as content items. */
export async function statementsOf(q: Q, versionId: string): Promise<ContentItem[]> {
  return (await versionFiles(q, [versionId]))
    .filter((f) => isStatementRole(f.role))
    .map((f) => statementItem(f));
}

/** A statement file as a content item, with the format its name says. */
export function statementItem(f: { name: string; language: string | null; fileId: string; sha256: string; sizeBytes: number }): ContentItem {
  return compact({ name: f.name, language: f.language, format: formatOfName(f.name), fileId: f.fileId, sha256: f.sha256, sizeBytes: f.sizeBytes }) as ContentItem;
}

/** The package of one version, if it has one. */
export async function packageFileOf(q: Q, versionId: string): Promise<VersionFileRow | undefined> {
  return (await versionFiles(q, [versionId])).find((f) => f.role === 'package');
}
