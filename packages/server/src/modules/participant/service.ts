import type { ParticipantProblem, ParticipantSeries } from '@judge/contract';
import { effectiveLimits, type EffectiveLimit, type LimitFigures, type NamedLimits } from '@judge/problem-package';
import { judgingMaxima } from '../../config.js';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Actor, UserPermissions } from '../../auth/permissions.js';
import { problemVersions, problems, series, seriesProblems } from '../../db/schema.js';
import { notFound } from '@judge/contract';
import type { Deps } from '../../services.js';
import { allowedLanguages, assignmentLanguages } from '../../languages.js';
import { compact } from '../../util.js';
import { seesActivity, visibleActivity, type ActivityRow } from '../policy/index.js';
import type { FilesService } from '../files/index.js';
import { newestVersion, type VersionRow } from '../problems/index.js';
import { readJudgeableLanguages, requiredTags } from '../runners/index.js';
import { isStatementRole, statementItem, versionFiles } from '../problems/index.js';
import { acceptsSubmissions, problemsVisible, type SeriesRow } from '../series/index.js';
import { prepared, type Q } from '../../db/storage.js';
import { StandingsCache, standingOf, standingOnAssignment, type Aggregate, type Standing } from './status.js';
import { problemFileUses } from './file-uses.js';
import { AssignmentLists, type ListedAssignment } from './assignments.js';

type AssignmentRow = typeof seriesProblems.$inferSelect;
type ProblemSummary = NonNullable<ParticipantSeries['problems']>[number];
type Attachment = ParticipantProblem['attachments'][number];
type Statement = ParticipantProblem['statements'][number];

/** An activity as the caller browses it: whether they manage it decides what is withheld. */
interface Browsing {
  a: ActivityRow;
  manages: boolean;
  /** The caller's permissions, loaded once for the request. */
  p: UserPermissions;
}

/** What the series list reads of a series. */
type ListedSeries = Pick<
  SeriesRow,
  | 'id'
  | 'slug'
  | 'name'
  | 'order'
  | 'startDate'
  | 'endDate'
  | 'isOpen'
  | 'openedAt'
  | 'pausedAt'
  | 'hideProblemsWhilePaused'
  | 'revealProblemCount'
  | 'rankingVisibleFrom'
  | 'rankingVisibleTo'
  | 'rankingFreezeAt'
  | 'rankingRevealAt'
>;
type VisibilityOfProblems = Pick<SeriesRow, 'openedAt' | 'isOpen' | 'pausedAt' | 'hideProblemsWhilePaused'>;

/** Roles and the scope of problem-version files: the package is the runner's, even when its scope says otherwise. */
const PACKAGE_ROLE = 'package';
const STATEMENT_IMAGE_ROLE = 'statementImage';
const PARTICIPANT_SCOPE = 'participant';

/**
 * The effective limits of a version's package under an assignment: the assignment's figure over
 * the package's, capped by the instance's maxima, as the runner applies them. A limit neither names
 * is left out (the judge's default applies); a version without a package has none to tell.
 */
export function shownLimits(
  v: VersionRow | undefined,
  config: Record<string, unknown> | null,
  maxima: LimitFigures,
): { timeLimitSeconds?: number; memoryMiB?: number; outputMiB?: number } {
  const info = v?.packageInfo;
  if (!info) return {};
  const e = effectiveLimits(info as NamedLimits, config, { maxima });
  const shown = (l: EffectiveLimit) => (l.source === 'default' ? undefined : l.value);
  return { timeLimitSeconds: shown(e.time), memoryMiB: shown(e.memory), outputMiB: shown(e.output) };
}

/**
 * The participant's side of series and problems (decisions §7, §9): the series of an activity with
 * the problems they show and the caller's standing on each, one problem with its statements,
 * attachments and effective limits, and who may read the files of problem versions.
 */
export class ParticipantService {
  /** The series list's standings, kept until the caller's submissions change. */
  private readonly listed = new StandingsCache();
  /** The assignments of each activity, read whole only when they changed. */
  private readonly assignments = new AssignmentLists();

  constructor(
    private readonly d: Deps,
    files: FilesService,
  ) {
    files.addReadRule(async (actor, fileId) => this.mayReadProblemFile(actor.userId, fileId));
  }

  /** After commit: a submission of `userId` in the activity changed; their standings there are read again. */
  submissionChanged(activityId: string, userId: string): void {
    this.listed.forget(userId, activityId);
  }

  // ---- who sees what ----

  /**
   * The activity if the caller may browse its content: they must see it and hold activity:read
   * there. Someone who could enrol in an open activity but has not is a stranger to its content:
   * 404, like an activity that does not exist.
   */
  private async browsing(actor: Actor, idOrSlug: string): Promise<Browsing> {
    const a = await visibleActivity(this.d, actor, idOrSlug);
    const p = await this.d.permissions.of(actor.userId);
    if (!p.has('activity:read', a.id)) throw notFound('activity');
    return { a, manages: p.has('activity:update', a.id), p };
  }

  /** Managers see every problem; others those of series that show them now. */
  private showsProblems(b: Browsing, s: VisibilityOfProblems): boolean {
    return b.manages || problemsVisible(s, b.a);
  }

  /**
   * Problem-version files, beyond what the problems area grants its authors: participant-scope
   * files to whoever is shown an assignment using that version (pinned, or following the newest);
   * any file to the managers of an activity that uses the problem (one indexed query, file-uses.ts).
   */
  private async mayReadProblemFile(userId: string, fileId: string): Promise<boolean> {
    const uses = await this.d.tx.read((q) => problemFileUses(q, fileId));
    if (!uses.length) return false;
    const p = await this.d.permissions.of(userId);
    return uses.some((use) => {
      if (p.has('activity:update', use.a.id)) return true;
      if (use.scope !== PARTICIPANT_SCOPE || !use.usesVersion) return false;
      const shown = seesActivity(p, use.a) && p.has('activity:read', use.a.id);
      return shown && problemsVisible(use.s, use.a);
    });
  }

  // ---- the series list ----

  /** Every series in order; problems and their count only where the series shows them (decisions §9). */
  async listSeries(actor: Actor, idOrSlug: string): Promise<ParticipantSeries[]> {
    const b = await this.browsing(actor, idOrSlug);
    const { all, bySeries, shown, standings } = await this.d.tx.read(async (q) => {
      const all = await seriesOfActivity(q, b.a.id);
      const bySeries = await this.assignments.bySeries(q, b.a.id);
      const shown = new Set(all.filter((s) => this.showsProblems(b, s)));
      // the caller's submissions are read only when some series shows problems
      const standings: ReadonlyMap<string, Aggregate> = shown.size ? await this.listed.ofActivity(q, actor.userId, b.a.id) : new Map();
      return { all, bySeries, shown, standings };
    });
    return all.map((s) => {
      const assigned = bySeries.get(s.id) ?? [];
      const showing = shown.has(s);
      const problems = showing ? assigned.map((p) => problemSummary(p, standingOf(standings.get(p.id), p.maxPoints))) : null;
      return compact({
        id: s.id,
        slug: s.slug,
        name: s.name,
        order: s.order,
        startDate: s.startDate,
        endDate: s.endDate,
        isOpen: s.isOpen,
        pausedAt: s.pausedAt,
        rankingVisibleFrom: s.rankingVisibleFrom,
        rankingVisibleTo: s.rankingVisibleTo,
        rankingFreezeAt: s.rankingFreezeAt,
        rankingRevealAt: s.rankingRevealAt,
        problemCount: showing || s.revealProblemCount ? assigned.length : null,
        problems,
      }) as ParticipantSeries;
    });
  }

  // ---- one problem ----

  /**
   * A problem by its assignment slug (regardless of case), as the caller sees it. 404 while its
   * series withholds problems (never opened, paused hiding them, ended in an activity that hides
   * ended series), except to managers.
   */
  async getProblem(actor: Actor, idOrSlug: string, problemSlug: string): Promise<ParticipantProblem> {
    const b = await this.browsing(actor, idOrSlug);
    const read = await this.d.tx.read(async (q) => {
      const [found] = await assignmentBySlug(q, { activityId: b.a.id, slugKey: problemSlug.toLowerCase() });
      if (!found || !this.showsProblems(b, found.s)) throw notFound('problem');
      const version = await this.effectiveVersion(q, found.sp);
      const aggregate = await standingOnAssignment(q, actor.userId, b.a.id, found.sp.id);
      const judgeable = await readJudgeableLanguages(q, requiredTags(found.s.runnerTags, b.a.runnerTags));
      return { ...found, version, aggregate, judgeable };
    });
    const { sp, s, p, version } = read;
    const content = version ? await this.participantFiles(version.id) : { statements: [], attachments: [] };
    const standing = standingOf(read.aggregate, sp.maxPoints);
    const maxSubmissions = sp.maxSubmissions ?? b.a.maxSubmissionsPerProblem;
    const submissionsLeft = maxSubmissions !== null ? Math.max(0, maxSubmissions - standing.attempts) : null;
    const canSubmit =
      !!version && acceptsSubmissions(s) && !b.a.archivedAt && submissionsLeft !== 0 && b.p.has('submission:create', b.a.id);
    const allowed = allowedLanguages(this.d.config.languages, { config: sp.config, judgeable: read.judgeable });
    return compact({
      id: sp.id,
      slug: sp.slug,
      name: sp.name ?? p.name,
      type: p.type,
      seriesId: s.id,
      seriesSlug: s.slug,
      ...content,
      ...shownLimits(version, sp.config, judgingMaxima(this.d.config)),
      languages: assignmentLanguages(sp.config),
      // the list a refused submission names (submissions: refuseUnjudgeable)
      allowedLanguages: allowed,
      maxUploadBytes: sp.maxUploadBytes ?? b.a.maxUploadBytes,
      maxAttachments: sp.maxAttachments ?? b.a.maxAttachments,
      maxSubmissions,
      submissionsLeft,
      canSubmit,
      ...standing,
      maxPoints: sp.maxPoints,
      config: sp.config,
      // the interface's existing web client draws its language select from spec.languages: the
      // effective ids go there too, over whatever the assignment's spec said (decisions §13)
      spec: { ...sp.spec, languages: allowed.map((l) => l.id) },
      props: sp.props,
    }) as ParticipantProblem;
  }

  /** The pinned version, else the problem's newest; none when the problem has no version yet. */
  private async effectiveVersion(q: Q, sp: AssignmentRow): Promise<VersionRow | undefined> {
    if (!sp.pinnedVersionId) return newestVersion(q, sp.problemId);
    return (await q.select().from(problemVersions).where(eq(problemVersions.id, sp.pinnedVersionId)).limit(1))[0];
  }

  /** The participant-scope files of a version: statements, and attachments (samples included, never the package). */
  private async participantFiles(versionId: string): Promise<{ statements: Statement[]; attachments: Attachment[] }> {
    const rows = (await this.d.tx.read((q) => versionFiles(q, [versionId]))).filter((f) => f.scope === PARTICIPANT_SCOPE && f.role !== PACKAGE_ROLE);
    const statements = rows.filter((f) => isStatementRole(f.role)).map((f): Statement => statementItem(f));
    // a statement's images are shown in it, not offered beside it
    const attachments = rows
      .filter((f) => !isStatementRole(f.role) && f.role !== STATEMENT_IMAGE_ROLE)
      .map((f): Attachment => ({ name: f.name, fileId: f.fileId, mimeType: f.mimeType, sizeBytes: f.sizeBytes, sha256: f.sha256 }));
    return { statements, attachments };
  }
}

/** One problem of the series list, members in the wire's order. */
function problemSummary(p: ListedAssignment, st: Standing): ProblemSummary {
  const out: ProblemSummary = { id: p.id, slug: p.slug, name: p.name ?? p.problemName, order: p.order, status: st.status, attempts: st.attempts };
  if (st.bestScore !== undefined) out.bestScore = st.bestScore;
  if (st.maxScore !== undefined) out.maxScore = st.maxScore;
  return out;
}

/** The series of an activity in order, with the columns the list shows or decides by. */
function seriesOfActivity(q: Q, activityId: string): Promise<ListedSeries[]> {
  return seriesListed(q, { activityId });
}

/* On every series list: built once per `q` (storage.ts, prepared()). */
const seriesListed = prepared((q) =>
  q
    .select({
      id: series.id,
      slug: series.slug,
      name: series.name,
      order: series.order,
      startDate: series.startDate,
      endDate: series.endDate,
      isOpen: series.isOpen,
      openedAt: series.openedAt,
      pausedAt: series.pausedAt,
      hideProblemsWhilePaused: series.hideProblemsWhilePaused,
      revealProblemCount: series.revealProblemCount,
      rankingVisibleFrom: series.rankingVisibleFrom,
      rankingVisibleTo: series.rankingVisibleTo,
      rankingFreezeAt: series.rankingFreezeAt,
      rankingRevealAt: series.rankingRevealAt,
    })
    .from(series)
    .where(eq(series.activityId, sql.placeholder('activityId')))
    .orderBy(asc(series.order), asc(series.id))
    .prepare(),
);

/* On every problem page: built once per `q` (storage.ts, prepared()). */
const assignmentBySlug = prepared((q) =>
  q
    .select({ sp: seriesProblems, s: series, p: problems })
    .from(seriesProblems)
    .innerJoin(series, eq(series.id, seriesProblems.seriesId))
    .innerJoin(problems, eq(problems.id, seriesProblems.problemId))
    .where(and(eq(seriesProblems.activityId, sql.placeholder('activityId')), eq(seriesProblems.slugKey, sql.placeholder('slugKey'))))
    .limit(1)
    .prepare(),
);
