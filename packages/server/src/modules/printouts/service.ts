import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  ApiError,
  clampPaging,
  forbidden,
  notFound,
  PRINTOUT_SOURCE_MAX,
  type OwnPrintoutsQuery,
  type Page,
  type Printout,
  type PrintoutDetail,
  type PrintoutRequest,
  type PrintoutsQuery,
} from '@judge/contract';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Actor } from '../../auth/permissions.js';
import { activities, files, printouts, problems, seriesProblems, submissionFiles, submissions } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import { event } from '../../events/bus.js';
import type { FilesService } from '../files/index.js';
import { requireNotArchived, visibleActivity, type ActivityRow } from '../policy/index.js';
import type { Deps } from '../../services.js';
import { defineJob } from '../../offloop/pool.js';
import { failureText, OffloopFailure } from '../../offloop/failure.js';
import { iso, newId, sha256Hex } from '../../util.js';
import { tooLong } from './layout.js';
import { zonedTime, type PrintoutPage } from './pdf.js';
import { PdfStore, printoutPdfDir } from './pdf-store.js';
import { runPrintCommand } from './printer.js';
import { printoutPage, printoutRow, toPrintout, type PrintoutRow } from './queries.js';

/**
 * Making a PDF off the event loop: the largest printout allowed takes a few seconds on a slow
 * machine (bench/printout-render.mjs), so a minute is far beyond any honest one.
 */
const RENDER = defineJob<typeof import('./render-job.js').default>({ name: 'printout', module: new URL('./render-job.js', import.meta.url), timeoutMs: 60_000, memoryMb: 256 });
/** Changed when the PDF's look changes, so that the PDFs kept are made again. */
const RENDERER = 'printout-pdf-2';

/** Refuses a source past the line or page limit (422 printout.tooLong), naming `field`. */
function checkLength(source: string, field: string): void {
  const why = tooLong(source);
  if (why) throw ApiError.of('printout.tooLong', `The printout is too long: ${why}`, { [field]: [why] });
}


/** A state change of the queue: false when there is nothing to change (claiming what one holds already). */
type Change = (q: Q, r: PrintoutRow, now: string) => Promise<boolean>;

/**
 * Printouts (decisions §6, §7, §9; interface "Printouts"): participants ask for a file or one of
 * their submissions on paper; staff with printout:manage work the queue (claim, release, resolve).
 * Each request is rendered as a PDF and, when `printing.command` is set, printed at once.
 *
 * On PostgreSQL: a state change reads the printout and decides inside its write, whose SERIALIZABLE
 * isolation (retried) lets only one of two staff claiming the same printout at once through; the
 * other, run again, finds it claimed.
 */
export class PrintoutsService {
  /** Print jobs still running, so that shutdown and tests can wait for them. */
  readonly printing = new Set<Promise<void>>();
  /** PDFs made (not served from those kept), for tests. */
  renders = 0;
  private readonly pdfs: PdfStore;

  constructor(
    private readonly d: Deps,
    private readonly files: FilesService,
  ) {
    this.pdfs = new PdfStore(printoutPdfDir(files.blobs.root));
  }

  private manages(userId: string, activityId: string, q?: Q): Promise<boolean> {
    return this.d.permissions.has(userId, 'printout:manage', activityId, q);
  }

  /** A printout the caller works on: 404 unless they manage its activity's printouts. */
  private async managed(q: Q, actor: Actor, id: string): Promise<PrintoutRow> {
    const r = await printoutRow(q, id);
    if (!r || !(await this.manages(actor.userId, r.activity_id, q))) {
      if (r?.user_id === actor.userId) throw forbidden('printout:manage');
      throw notFound('printout');
    }
    return r;
  }

  /** A participant's activity: visible, printouts on, `printout:create` there. */
  private async participantActivity(actor: Actor, idOrSlug: string): Promise<ActivityRow> {
    const a = await visibleActivity(this.d, actor, idOrSlug);
    if (!a.modules.printouts) throw ApiError.of('printouts.disabled', 'Printouts are switched off in this activity');
    await this.d.permissions.require(actor, 'printout:create', a.id);
    return a;
  }

  /** What a request prints: the text given, or the caller's own submission's files one after another. */
  private async content(actor: Actor, a: ActivityRow, body: PrintoutRequest): Promise<{ fileName: string; source: string; submissionId: string | null; seriesProblemId: string | null; title?: string }> {
    if ('source' in body) return { fileName: body.fileName, source: body.source, submissionId: null, seriesProblemId: null };
    const { s, parts } = await this.d.tx.read(async (q) => {
      const [s] = await q
        .select({ seriesProblemId: submissions.seriesProblemId, problemName: sql<string>`coalesce(${seriesProblems.name}, ${problems.name})` })
        .from(submissions)
        .innerJoin(seriesProblems, eq(seriesProblems.id, submissions.seriesProblemId))
        .innerJoin(problems, eq(problems.id, seriesProblems.problemId))
        .where(and(eq(submissions.id, body.submissionId), eq(submissions.activityId, a.id), eq(submissions.userId, actor.userId)))
        .limit(1);
      const parts = s
        ? await q
            .select({ fileName: submissionFiles.fileName, sha256: files.sha256 })
            .from(submissionFiles)
            .innerJoin(files, eq(files.id, submissionFiles.fileId))
            .where(eq(submissionFiles.submissionId, body.submissionId))
            .orderBy(submissionFiles.name)
        : [];
      return { s, parts };
    });
    if (!s) throw notFound('submission');
    const texts = [];
    for (const f of parts) texts.push({ name: f.fileName, text: await readFile(this.files.blobs.pathOf(f.sha256), 'utf8') });
    const source = texts.length === 1 ? texts[0]!.text : texts.map((t) => `==== ${t.name} ====\n${t.text}`).join('\n\n');
    if (Buffer.byteLength(source) > PRINTOUT_SOURCE_MAX) throw ApiError.of('validation_failed', 'The submission is too long to print', { submissionId: ['too long to print'] });
    return { fileName: texts[0]?.name ?? 'submission', source, submissionId: body.submissionId, seriesProblemId: s.seriesProblemId, title: s.problemName };
  }

  async request(actor: Actor, idOrSlug: string, body: PrintoutRequest): Promise<Printout> {
    const a = await this.participantActivity(actor, idOrSlug);
    requireNotArchived(a);
    const c = await this.content(actor, a, body);
    checkLength(c.source, 'source' in body ? 'source' : 'submissionId');
    const id = newId();
    const printout = await this.d.tx.write(async (q, out) => {
      await q.insert(printouts).values({
        id,
        activityId: a.id,
        userId: actor.userId,
        title: body.title || c.title || c.fileName,
        fileName: c.fileName,
        source: c.source,
        sizeBytes: Buffer.byteLength(c.source),
        sha256: sha256Hex(c.source),
        submissionId: c.submissionId,
        seriesProblemId: c.seriesProblemId,
        state: 'queued',
        requestedAt: iso(this.d.clock.now()),
      });
      const r = (await printoutRow(q, id))!;
      this.tellStaff(out, r);
      return toPrintout(r, actor.userId);
    });
    if (this.d.config.printing.command) this.track(this.print(id, this.d.config.printing.command));
    return printout;
  }

  private tellStaff(out: Outbox, r: PrintoutRow): void {
    const { claimedByMe: _, ...signal } = toPrintout(r);
    out.emit(event('printoutChanged', { activityId: r.activity_id, printout: signal }, { kind: 'permission', key: 'printout:manage', activityId: r.activity_id }));
  }

  private track(p: Promise<void>): void {
    this.printing.add(p);
    void p.finally(() => this.printing.delete(p));
  }

  /** Renders and prints in the background: the request that asked for it has long been answered. */
  private async print(id: string, command: string): Promise<void> {
    try {
      const r = await this.d.tx.write(async (q) => {
        await q.update(printouts).set({ printStartedAt: iso(this.d.clock.now()) }).where(eq(printouts.id, id));
        return (await printoutRow(q, id))!;
      });
      const pdf = await this.render(r);
      const result = await runPrintCommand(command, pdf);
      await this.d.tx.write((q) =>
        q
          .update(printouts)
          .set({ printFinishedAt: iso(this.d.clock.now()), printExitCode: result.exitCode, printOutput: result.output })
          .where(eq(printouts.id, id)),
      );
      if (result.exitCode !== 0) this.d.log.warn({ printoutId: id, exitCode: result.exitCode, output: result.output }, 'the printing command failed');
    } catch (e) {
      this.d.log.error({ err: e, printoutId: id }, 'printing failed');
    }
  }

  /**
   * The printout's PDF: the one kept, or made on the bounded pool and kept. Making it never runs on
   * the event loop; past its time or memory it is refused (422 printout.render).
   */
  private async render(r: PrintoutRow): Promise<Buffer> {
    if (r.source === null) throw ApiError.of('printout.state', 'The source of this printout was disposed of');
    // printouts asked for before the limits were set are held to them too
    checkLength(r.source, 'source');
    const page: PrintoutPage = {
      participant: toPrintout(r).requestedByName,
      subject: r.problem_name ?? r.title,
      fileName: r.file_name,
      time: zonedTime(r.requested_at, r.time_zone),
      source: r.source,
      language: r.language ?? undefined,
    };
    const key = createHash('sha256').update(RENDERER).update(JSON.stringify(page)).digest('hex');
    return this.pdfs.get(r.id, key, async () => {
      try {
        const pdf = await this.d.offloop.run(RENDER, page);
        this.renders++;
        return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
      } catch (e) {
        if (!(e instanceof OffloopFailure)) throw e;
        this.d.log.warn({ printoutId: r.id, reason: e.reason, err: e.message }, 'a printout could not be made');
        throw ApiError.of('printout.render', `The printout's PDF could not be made: ${failureText(e)}`);
      }
    });
  }

  async listOwn(actor: Actor, idOrSlug: string, q: z.output<typeof OwnPrintoutsQuery>): Promise<Page<Printout>> {
    const a = await this.participantActivity(actor, idOrSlug);
    return this.page(and(eq(printouts.activityId, a.id), eq(printouts.userId, actor.userId)), q, actor.userId, 'desc');
  }

  private async page(where: SQL | undefined, q: { page?: number | undefined; pageSize?: number | undefined }, viewer: string, order: 'asc' | 'desc'): Promise<Page<Printout>> {
    const { page, pageSize } = clampPaging(q);
    const { rows, total } = await this.d.tx.read((tq) => printoutPage(tq, where, order, pageSize, (page - 1) * pageSize));
    return { items: rows.map((r) => toPrintout(r, viewer)), total, page, pageSize };
  }

  /** The activities whose printouts the caller handles. */
  private async managedActivities(userId: string): Promise<{ id: string; name: string; slug: string; printouts: boolean }[]> {
    const all = await this.d.tx.read((q) => q.select({ id: activities.id, name: activities.name, slug: activities.slug, modules: activities.modules }).from(activities).orderBy(activities.name));
    const may = await this.d.permissions.of(userId);
    return all.filter((a) => may.has('printout:manage', a.id)).map((a) => ({ id: a.id, name: a.name, slug: a.slug, printouts: a.modules.printouts === true }));
  }

  /** The queue, oldest first: what waits longest is printed first. */
  async list(actor: Actor, q: z.output<typeof PrintoutsQuery>): Promise<Page<Printout>> {
    let ids: string[];
    if (q.activityId) {
      await this.d.permissions.require(actor, 'printout:manage', q.activityId);
      ids = [q.activityId];
    } else {
      ids = (await this.managedActivities(actor.userId)).map((a) => a.id);
      if (!ids.length) throw forbidden('printout:manage');
    }
    const where = and(inArray(printouts.activityId, ids), q.state?.length ? inArray(printouts.state, q.state) : undefined);
    return this.page(where, q, actor.userId, 'asc');
  }

  async activities(actor: Actor): Promise<{ id: string; name: string; slug: string }[]> {
    return (await this.managedActivities(actor.userId)).filter((a) => a.printouts).map(({ id, name, slug }) => ({ id, name, slug }));
  }

  /** Staff read any printout of theirs; a requester reads their own (without the print job). */
  private async readable(actor: Actor, id: string): Promise<{ r: PrintoutRow; staff: boolean }> {
    const r = await this.d.tx.read((q) => printoutRow(q, id));
    const staff = !!r && (await this.manages(actor.userId, r.activity_id));
    if (!r || (!staff && r.user_id !== actor.userId)) throw notFound('printout');
    return { r, staff };
  }

  async get(actor: Actor, id: string): Promise<PrintoutDetail> {
    const { r, staff } = await this.readable(actor, id);
    const job = staff && r.print_started_at ? { startedAt: r.print_started_at, finishedAt: r.print_finished_at ?? undefined, exitCode: r.print_exit_code ?? undefined, output: r.print_output || undefined } : undefined;
    return JSON.parse(
      JSON.stringify({
        printout: toPrintout(r, actor.userId),
        timeZone: r.time_zone,
        problemSlug: r.problem_slug ?? undefined,
        problemName: r.problem_name ?? undefined,
        source: r.source ?? '',
        printJob: job,
      }),
    ) as PrintoutDetail;
  }

  async pdf(actor: Actor, id: string): Promise<Buffer> {
    return this.render((await this.readable(actor, id)).r);
  }

  /** One state change: checked and written in one transaction, and told to the requester and the staff. */
  private transition(actor: Actor, id: string, change: Change): Promise<Printout> {
    return this.d.tx.write(async (q, out) => {
      const before = await this.managed(q, actor, id);
      if (!(await change(q, before, iso(this.d.clock.now())))) return toPrintout(before, actor.userId);
      const r = (await printoutRow(q, id))!;
      this.tellStaff(out, r);
      const { claimedByMe: _, ...signal } = toPrintout(r);
      out.emit(event('printoutStateChanged', { activityId: r.activity_id, printout: signal }, { kind: 'users', userIds: [r.user_id] }));
      return toPrintout(r, actor.userId);
    });
  }

  claim(actor: Actor, id: string): Promise<Printout> {
    // PostgreSQL: two staff claiming at once both read 'queued'; SERIALIZABLE fails one, whose retry finds it claimed
    return this.transition(actor, id, async (q, r, now) => {
      if (r.state === 'claimed' && r.claimed_by_user_id === actor.userId) return false;
      if (r.state === 'claimed') throw ApiError.of('printout.claimed', `${toPrintout(r).claimedByName ?? 'Somebody'} has taken this printout`);
      if (r.state !== 'queued') throw ApiError.of('printout.state', 'The printout is resolved');
      await q.update(printouts).set({ state: 'claimed', claimedByUserId: actor.userId, claimedAt: now }).where(eq(printouts.id, id));
      return true;
    });
  }

  release(actor: Actor, id: string): Promise<Printout> {
    return this.transition(actor, id, async (q, r) => {
      if (r.state !== 'claimed') throw ApiError.of('printout.state', r.state === 'queued' ? 'The printout is not taken' : 'The printout is resolved');
      await q.update(printouts).set({ state: 'queued', claimedByUserId: null, claimedAt: null }).where(eq(printouts.id, id));
      return true;
    });
  }

  resolve(actor: Actor, id: string, note: string | undefined): Promise<Printout> {
    return this.transition(actor, id, async (q, r, now) => {
      if (r.state === 'resolved') throw ApiError.of('printout.state', 'The printout is already resolved');
      await q.update(printouts).set({ state: 'resolved', resolvedByUserId: actor.userId, resolvedAt: now, note: note ?? null }).where(eq(printouts.id, id));
      return true;
    });
  }
}
