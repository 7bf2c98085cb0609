import type {
  CreateProblemRequest,
  CreateVersionRequest,
  Page,
  Problem,
  ProblemVersion,
  UpdateProblemRequest,
  VisibilityRequest,
} from '@judge/contract';
import { and, desc, eq, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../../auth/permissions.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { problemShares, problemVersionFiles, problemVersions, problems } from '../../db/schema.js';
import { event } from '../../events/bus.js';
import { ApiError, notFound } from '@judge/contract';
import type { Deps } from '../../services.js';
import { iso, newId } from '../../util.js';
import { judgingMaxima } from '../../config.js';
import type { FilesService } from '../files/index.js';
import { findUserById } from '../users/index.js';
import { needsCalibration, type VersionCalibration } from './calibration.js';
import { inspectPackage, type PackageSummary } from './package.js';
import { packageSamples } from './samples.js';
import { readStatements, statementWarnings, storeStatements } from './statement-files.js';
import { checkVersionRequest, NOTHING_MADE, nextFiles, PACKAGE_NAME, type MadeFiles, type PlannedFile } from './version-files.js';
import {
  attachedCount,
  canReadProblem,
  canWriteProblem,
  findProblem,
  newestVersion,
  problemAudience,
  readableProblem,
  slugKey,
  slugTaken,
  writableProblem,
  type ProblemRow,
  type VersionRow,
} from './queries.js';
import { packageFileOf, statementsOf, toProblem, toProblems, toVersions, versionRowsOf, type ContentItem } from './views.js';

type CreateInput = z.output<typeof CreateProblemRequest>;
type UpdateInput = z.output<typeof UpdateProblemRequest>;
type VisibilityInput = z.output<typeof VisibilityRequest>;
type VersionInput = z.output<typeof CreateVersionRequest>;

export interface ProblemsListQuery {
  page: number;
  pageSize: number;
  search?: string | undefined;
  mineOnly?: boolean | undefined;
  sharedOnly?: boolean | undefined;
  includeArchived?: boolean | undefined;
}

/** What a download of a package needs to know. */
export interface PackageDownload {
  sha256: string;
  sizeBytes: number;
  name: string;
  mimeType: string;
}

const SLUG_MAX = 64;
const NAME_MAX = 200;
const COPY_SUFFIX = ' (copy)';
const likePattern = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Problems and their versions. Every check-then-write (a free slug, the problem still writable, the
 * next version number) runs inside one `d.tx.write`: on SQLite one writer at a time; on PostgreSQL
 * the transaction's SERIALIZABLE isolation, retried by the engine, with the unique indexes on the
 * slug and on (problem, version) behind it. A new version's files are read and stored before it.
 */
export class ProblemsService {
  constructor(
    private readonly d: Deps,
    readonly files: FilesService,
    /** Queues the trial that computes the time limit of a version whose package names none. */
    private readonly calibration?: VersionCalibration,
  ) {
    files.addReadRule((actor, fileId) => this.mayReadFile(actor, fileId));
  }

  /**
   * What the package of a problem's version said of itself (limits, test counts), of `versionId`
   * or else the newest version; unchecked, for the CLICS API's problems (decisions §25).
   */
  async packageInfoOf(problemId: string, versionId?: string): Promise<Record<string, unknown> | null> {
    return this.d.tx.read(async (q) => {
      const v = versionId ? (await q.select().from(problemVersions).where(eq(problemVersions.id, versionId)).limit(1))[0] : await newestVersion(q, problemId);
      return v?.packageInfo ?? null;
    });
  }

  // ---------------------------------------------------------------- problems

  async list(actor: Actor, query: ProblemsListQuery): Promise<Page<Problem>> {
    const me = actor.userId;
    const may = await this.d.permissions.of(me);
    const readsAll = may.has('problem:read:all');
    if (!readsAll) may.require('problem:read:own');
    const where: SQL[] = [];
    if (!query.includeArchived) where.push(isNull(problems.archivedAt));
    if (query.mineOnly) where.push(eq(problems.ownerUserId, me));
    // shared with the caller: what a colleague gave them, whatever problem:read:all would add
    if (query.sharedOnly) where.push(ne(problems.ownerUserId, me), this.sharedWith(me));
    if (!readsAll) where.push(this.readableBy(me));
    const term = query.search?.trim();
    if (term) {
      const pattern = likePattern(term);
      where.push(or(sql`${problems.slugKey} LIKE ${pattern} ESCAPE '\\'`, sql`lower(${problems.name}) LIKE ${pattern} ESCAPE '\\'`)!);
    }
    const filter = where.length ? and(...where) : undefined;
    return this.d.tx.read(async (q) => {
      const [count] = await q.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(problems).where(filter);
      const rows = await q
        .select()
        .from(problems)
        .where(filter)
        .orderBy(desc(problems.createdAt), desc(problems.id))
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize);
      return { items: await toProblems(q, rows), total: count?.n ?? 0, page: query.page, pageSize: query.pageSize };
    });
  }

  /** The readability rule of canReadProblem as SQL, for a caller who holds problem:read:own. */
  /** Problems shared with the user: with the whole instance, or with them by name. */
  private sharedWith(userId: string): SQL {
    // qualified by hand: drizzle renders the outer table's columns unqualified inside the subquery
    const byName = sql`EXISTS (SELECT 1 FROM ${problemShares} AS s WHERE s.problem_id = ${problems}.id AND s.user_id = ${userId})`;
    return or(eq(problems.visibility, 'instance'), and(eq(problems.visibility, 'shared'), byName))!;
  }

  private readableBy(userId: string): SQL {
    return or(eq(problems.ownerUserId, userId), this.sharedWith(userId))!;
  }

  async create(actor: Actor, input: CreateInput): Promise<Problem> {
    await this.d.permissions.require(actor, 'problem:create');
    return this.d.tx.write(async (q, out) => {
      if (await slugTaken(q, input.slug)) throw slugTakenError(input.slug);
      const [row] = await q
        .insert(problems)
        .values({
          id: newId(),
          slug: input.slug,
          slugKey: slugKey(input.slug),
          name: input.name,
          type: input.type,
          external: input.external ?? false,
          ownerUserId: actor.userId,
          visibility: 'private',
          createdAt: iso(this.d.clock.now()),
        })
        .returning();
      return this.announce(q, row!, out);
    });
  }

  async get(actor: Actor, id: string): Promise<Problem> {
    return this.d.tx.read(async (q) => toProblem(q, await readableProblem(this.d, q, actor, id)));
  }

  async update(actor: Actor, id: string, input: UpdateInput): Promise<Problem> {
    return this.d.tx.write(async (q, out) => {
      const p = await writableProblem(this.d, q, actor, id, 'problem:update');
      if (input.type !== p.type) {
        throw ApiError.of('problem.type.immutable', `The type is fixed at creation: it stays ${p.type}`, { type: [`must be ${p.type}`] });
      }
      if (await slugTaken(q, input.slug, p.id)) throw slugTakenError(input.slug);
      const [row] = await q
        .update(problems)
        .set({ slug: input.slug, slugKey: slugKey(input.slug), name: input.name })
        .where(eq(problems.id, p.id))
        .returning();
      return this.announce(q, row!, out);
    });
  }

  async delete(actor: Actor, id: string): Promise<void> {
    await this.d.tx.write(async (q, out) => {
      const p = await writableProblem(this.d, q, actor, id, 'problem:delete');
      const uses = await attachedCount(q, p.id);
      if (uses > 0) throw ApiError.of('problem.attached', `The problem is used by ${uses} assignment(s); detach it first`);
      // told before the shares go with the problem
      const audience = await problemAudience(q, p);
      // versions, their file rows and the shares go with it (ON DELETE CASCADE); the bytes stay
      await q.delete(problems).where(eq(problems.id, p.id));
      out.emit(event('problemChanged', { deletedId: p.id }, audience));
    });
  }

  async setArchived(actor: Actor, id: string, archived: boolean): Promise<Problem> {
    return this.d.tx.write(async (q, out) => {
      const p = await writableProblem(this.d, q, actor, id, 'problem:archive');
      const archivedAt = archived ? (p.archivedAt ?? iso(this.d.clock.now())) : null;
      const [row] = await q.update(problems).set({ archivedAt }).where(eq(problems.id, p.id)).returning();
      return this.announce(q, row!, out);
    });
  }

  /** A private copy owned by the caller, with the newest version as its first; the bytes are shared. */
  async duplicate(actor: Actor, id: string): Promise<Problem> {
    await this.d.permissions.require(actor, 'problem:create');
    return this.d.tx.write(async (q, out) => {
      const source = await readableProblem(this.d, q, actor, id);
      const slug = await this.copySlug(q, source.slug);
      const now = iso(this.d.clock.now());
      const [row] = await q
        .insert(problems)
        .values({
          id: newId(),
          slug,
          slugKey: slugKey(slug),
          name: source.name.slice(0, NAME_MAX - COPY_SUFFIX.length) + COPY_SUFFIX,
          type: source.type,
          external: source.external,
          ownerUserId: actor.userId,
          visibility: 'private',
          createdAt: now,
        })
        .returning();
      const newest = await newestVersion(q, source.id);
      if (newest) {
        await this.insertVersion(q, row!.id, 1, actor, {
          note: `Copied from ${source.slug} v${newest.version}`,
          props: newest.props,
          packageInfo: newest.packageInfo,
          files: await this.filesOf(q, newest.id),
        });
      }
      return this.announce(q, row!, out);
    });
  }

  /** `<slug>-2`, `-3`, ... the first free one up to 99, the slug cut so that the suffix fits. */
  private async copySlug(q: Q, slug: string): Promise<string> {
    for (let n = 2; n <= 99; n++) {
      const suffix = `-${n}`;
      const candidate = slug.slice(0, SLUG_MAX - suffix.length) + suffix;
      if (!(await slugTaken(q, candidate))) return candidate;
    }
    throw ApiError.of('problem.slug.exhausted', `Every copy slug from ${slug}-2 to ${slug}-99 is taken; rename a copy first`);
  }

  async setVisibility(actor: Actor, id: string, input: VisibilityInput): Promise<Problem> {
    return this.d.tx.write(async (q, out) => {
      const p = await writableProblem(this.d, q, actor, id, 'problem:share');
      // the list means something only for `shared`; otherwise nobody is named
      const sharedWith = input.visibility === 'shared' ? [...new Set(input.sharedWith ?? [])] : [];
      const unknown: string[] = [];
      for (const userId of sharedWith) if (!(await findUserById(q, userId))) unknown.push(userId);
      if (unknown.length) {
        throw ApiError.of('validation_failed', `No such user: ${unknown.join(', ')}`, { sharedWith: unknown.map((u) => `no user has the id ${u}`) });
      }
      const [row] = await q.update(problems).set({ visibility: input.visibility }).where(eq(problems.id, p.id)).returning();
      await q.delete(problemShares).where(eq(problemShares.problemId, p.id));
      if (sharedWith.length) await q.insert(problemShares).values(sharedWith.map((userId) => ({ problemId: p.id, userId })));
      return this.announce(q, row!, out);
    });
  }

  /** Tells the problem's audience what it looks like now. */
  private async announce(q: Q, row: ProblemRow, out: Outbox): Promise<Problem> {
    const view = await toProblem(q, row);
    out.emit(event('problemChanged', { problem: view }, await problemAudience(q, row)));
    return view;
  }

  // ---------------------------------------------------------------- versions

  async versions(actor: Actor, problemId: string): Promise<ProblemVersion[]> {
    return this.d.tx.read(async (q) => {
      const p = await readableProblem(this.d, q, actor, problemId);
      return toVersions(q, await versionRowsOf(q, p.id), judgingMaxima(this.d.config));
    });
  }

  async content(actor: Actor, problemId: string, versionId: string): Promise<ContentItem[]> {
    return this.d.tx.read(async (q) => {
      const p = await readableProblem(this.d, q, actor, problemId);
      return statementsOf(q, (await this.versionOf(q, p, versionId)).id);
    });
  }

  /** The package of a version, for those who may edit the problem; 404 when the version has none. */
  async packageOf(actor: Actor, problemId: string, versionId: string): Promise<PackageDownload> {
    return this.d.tx.read(async (q) => {
      const p = await writableProblem(this.d, q, actor, problemId, 'problem:update');
      const v = await this.versionOf(q, p, versionId);
      const pkg = await packageFileOf(q, v.id);
      if (!pkg) throw notFound('package');
      return { sha256: pkg.sha256, sizeBytes: pkg.sizeBytes, name: `${p.slug}-v${v.version}.zip`, mimeType: 'application/zip' };
    });
  }

  private async versionOf(q: Q, p: ProblemRow, versionId: string): Promise<VersionRow> {
    const [v] = await q
      .select()
      .from(problemVersions)
      .where(and(eq(problemVersions.id, versionId), eq(problemVersions.problemId, p.id)))
      .limit(1);
    if (!v) throw notFound('version');
    return v;
  }

  /**
   * Appends a version (decisions §14). Everything that can be refused from the request and the
   * stored state is refused before the package is read; the package is read outside the
   * transaction (it may be large), and the state is checked again inside it before anything is
   * written, so a refusal at any step stores nothing.
   */
  async createVersion(actor: Actor, problemId: string, input: VersionInput): Promise<ProblemVersion> {
    await this.d.tx.read((q) => this.writableForVersions(q, actor, problemId));
    checkVersionRequest(input);
    const fileRows = await this.requireFiles(actor, input);
    await this.d.tx.read((q) => this.planVersion(q, problemId, input));
    let inspected: PackageSummary | undefined;
    let calibrate = false;
    const path = input.package ? this.files.blobs.pathOf(fileRows.get(input.package.fileId)!.sha256) : undefined;
    if (path) {
      inspected = await inspectPackage(this.d.offloop, path);
      calibrate = !!this.calibration && (await needsCalibration(inspected, path));
    }
    const statements = await readStatements(this.d.offloop, this.files, actor, path, input.statements);
    // the version's answer has no place for them: the converters' warnings go to the log
    for (const w of statementWarnings(statements)) this.d.log.warn({ problemId, ...w }, 'a statement was converted with warnings');
    // nothing is refused past this point but what the transaction checks again
    const made: MadeFiles = { ...NOTHING_MADE, ...(await storeStatements(this.files, actor, statements)) };
    if (path) made.samples = await this.storeSamples(actor, path);
    return this.d.tx.write(async (q, out) => {
      const p = await this.writableForVersions(q, actor, problemId);
      const plan = await this.planVersion(q, p.id, input, made);
      const row = await this.insertVersion(q, p.id, (plan.previous?.version ?? 0) + 1, actor, {
        note: input.note ?? null,
        props: input.props !== undefined ? input.props : (plan.previous?.props ?? null),
        packageInfo: inspected ?? (plan.files.some((f) => f.name === PACKAGE_NAME) ? (plan.previous?.packageInfo ?? null) : null),
        files: plan.files,
      });
      if (calibrate) await this.calibration!.queue(q, { versionId: row.id, problemType: p.type, packageFileId: input.package!.fileId }, out);
      await this.announce(q, p, out);
      return (await toVersions(q, [row], judgingMaxima(this.d.config)))[0]!;
    });
  }

  /** The package's samples, stored as files before the version's transaction (they may be large). */
  private async storeSamples(actor: Actor, path: string): Promise<PlannedFile[]> {
    const out: PlannedFile[] = [];
    for (const s of await packageSamples(path)) {
      const meta = await this.files.store(actor, { name: s.name.slice(s.name.lastIndexOf('/') + 1), mimeType: 'text/plain', bytes: s.bytes });
      out.push({ name: s.name, scope: 'participant', role: 'sample', language: null, fileId: meta.id });
    }
    return out;
  }

  private async writableForVersions(q: Q, actor: Actor, problemId: string): Promise<ProblemRow> {
    const p = await writableProblem(this.d, q, actor, problemId, 'problem:update');
    if (p.archivedAt) throw ApiError.of('problem.archived', 'The problem is archived; restore it before adding a version');
    return p;
  }

  /** Every file the request names must exist and be readable by the caller, else 422 file.missing. */
  private async requireFiles(actor: Actor, input: VersionInput): Promise<Map<string, { sha256: string }>> {
    const named: [string, string][] = [
      ...(input.statements ?? []).map((s, i): [string, string] => [`statements[${i}].fileId`, s.fileId]),
      ...(input.files ?? []).map((f, i): [string, string] => [`files[${i}].fileId`, f.fileId]),
      ...(input.package ? [['package.fileId', input.package.fileId] as [string, string]] : []),
      ...(input.package?.samplesFileId ? [['package.samplesFileId', input.package.samplesFileId] as [string, string]] : []),
    ];
    const found = new Map<string, { sha256: string }>();
    const missing: Record<string, string[]> = {};
    for (const [path, fileId] of named) {
      try {
        found.set(fileId, await this.files.readable(actor, fileId));
      } catch (e) {
        if (!(e instanceof ApiError) || e.status !== 404) throw e;
        missing[path] = [`no file ${fileId} that you may read`];
      }
    }
    const paths = Object.keys(missing);
    if (paths.length) throw ApiError.of('file.missing', `These files do not exist or are not yours to use: ${paths.join(', ')}`, missing);
    return found;
  }

  /** The previous version and the files of the next one; refuses unknown removals and an empty first version. */
  private async planVersion(q: Q, problemId: string, input: VersionInput, made: MadeFiles = NOTHING_MADE): Promise<{ previous: VersionRow | undefined; files: PlannedFile[] }> {
    const previous = await newestVersion(q, problemId);
    if (!previous && !input.package && !input.statements?.length) {
      throw ApiError.of('validation_failed', 'The first version of a problem needs a package or at least one statement', {
        package: ['a package or statements are required for the first version'],
      });
    }
    return { previous, files: nextFiles(previous ? await this.filesOf(q, previous.id) : [], input, made) };
  }

  private async filesOf(q: Q, versionId: string): Promise<PlannedFile[]> {
    const rows = await q.select().from(problemVersionFiles).where(eq(problemVersionFiles.versionId, versionId));
    return rows.map((f) => ({ name: f.name, scope: f.scope, role: f.role as PlannedFile['role'], language: f.language, fileId: f.fileId }));
  }

  private async insertVersion(
    q: Q,
    problemId: string,
    version: number,
    actor: Actor,
    v: { note: string | null; props: VersionRow['props']; packageInfo: VersionRow['packageInfo']; files: PlannedFile[] },
  ): Promise<VersionRow> {
    const [row] = await q
      .insert(problemVersions)
      .values({
        id: newId(),
        problemId,
        version,
        note: v.note,
        props: v.props,
        packageInfo: v.packageInfo,
        createdBy: actor.userId,
        createdAt: iso(this.d.clock.now()),
      })
      .returning();
    if (v.files.length) await q.insert(problemVersionFiles).values(v.files.map((f) => ({ ...f, versionId: row!.id })));
    return row!;
  }

  // ---------------------------------------------------------------- file access

  /**
   * Files of problem versions: readable by those who may edit the problem; participant-scope files
   * also by those who may read it. The same bytes may serve several problems (duplicates share them).
   */
  private mayReadFile(actor: Actor, fileId: string): Promise<boolean> {
    return this.d.tx.read(async (q) => {
      const uses = await q
        .selectDistinct({ problemId: problemVersions.problemId, scope: problemVersionFiles.scope })
        .from(problemVersionFiles)
        .innerJoin(problemVersions, eq(problemVersions.id, problemVersionFiles.versionId))
        .where(eq(problemVersionFiles.fileId, fileId));
      for (const use of uses) {
        const p = await findProblem(q, use.problemId);
        if (!p) continue;
        if (await canWriteProblem(this.d, q, actor.userId, p, 'problem:update')) return true;
        if (use.scope === 'participant' && (await canReadProblem(this.d, q, actor.userId, p))) return true;
      }
      return false;
    });
  }
}

const slugTakenError = (slug: string) => ApiError.of('problem.slug.taken', `A problem with the slug ${slug} exists`, { slug: ['is taken'] });
