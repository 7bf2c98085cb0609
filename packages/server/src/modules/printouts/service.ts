import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
import type { z } from 'zod';
import type { Actor } from '../../auth/permissions.js';
import type { Outbox } from '../../db/transactor.js';
import { event } from '../../events/bus.js';
import type { FilesService } from '../files/index.js';
import { requireNotArchived, visibleActivity, type ActivityRow } from '../policy/index.js';
import type { Deps } from '../../services.js';
import { defineJob } from '../../offloop/pool.js';
import { failureText, OffloopFailure } from '../../offloop/failure.js';
import { iso, newId, sha256Hex, statements } from '../../util.js';
import { tooLong } from './layout.js';
import { zonedTime, type PrintoutPage } from './pdf.js';
import { PdfStore, printoutPdfDir } from './pdf-store.js';
import { runPrintCommand } from './printer.js';
import { PRINTOUT_SELECT, toPrintout, type PrintoutRow } from './queries.js';

const FROM = PRINTOUT_SELECT.slice(PRINTOUT_SELECT.indexOf('FROM printouts'));

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

/**
 * Printouts (decisions §6, §7, §9; interface "Printouts"): participants ask for a file or one of
 * their submissions on paper; staff with printout:manage work the queue (claim, release, resolve).
 * Each request is rendered as a PDF and, when `printing.command` is set, printed at once.
 */
export class PrintoutsService {
  private readonly st: ReturnType<typeof statements>;
  /** Print jobs still running, so that shutdown and tests can wait for them. */
  readonly printing = new Set<Promise<void>>();
  /** PDFs made (not served from those kept), for tests. */
  renders = 0;
  private readonly pdfs: PdfStore;

  constructor(
    private readonly d: Deps,
    private readonly files: FilesService,
  ) {
    this.st = statements(d.sqlite);
    this.pdfs = new PdfStore(printoutPdfDir(d.dataDir));
  }

  private row(id: string): PrintoutRow | undefined {
    return this.st<[string], PrintoutRow>(`${PRINTOUT_SELECT} WHERE o.id = ?`).get(id);
  }

  private manages(userId: string, activityId: string): boolean {
    return this.d.permissions.has(userId, 'printout:manage', activityId);
  }

  /** A printout the caller works on: 404 unless they manage its activity's printouts. */
  private managed(actor: Actor, id: string): PrintoutRow {
    const r = this.row(id);
    if (!r || !this.manages(actor.userId, r.activity_id)) {
      if (r?.user_id === actor.userId) throw forbidden('printout:manage');
      throw notFound('printout');
    }
    return r;
  }

  /** A participant's activity: visible, printouts on, `printout:create` there. */
  private async participantActivity(actor: Actor, idOrSlug: string): Promise<ActivityRow> {
    const a = await visibleActivity(this.d, actor, idOrSlug);
    if (!a.modules.printouts) throw ApiError.of('printouts.disabled', 'Printouts are switched off in this activity');
    this.d.permissions.require(actor, 'printout:create', a.id);
    return a;
  }

  /** What a request prints: the text given, or the caller's own submission's files one after another. */
  private content(actor: Actor, a: ActivityRow, body: PrintoutRequest): { fileName: string; source: string; submissionId: string | null; seriesProblemId: string | null; title?: string } {
    if ('source' in body) return { fileName: body.fileName, source: body.source, submissionId: null, seriesProblemId: null };
    const s = this.st<[string, string, string], { series_problem_id: string; problem_name: string }>(
      `SELECT s.series_problem_id, COALESCE(sp.name, p.name) AS problem_name FROM submissions s
       JOIN series_problems sp ON sp.id = s.series_problem_id JOIN problems p ON p.id = sp.problem_id
       WHERE s.id = ? AND s.activity_id = ? AND s.user_id = ?`,
    ).get(body.submissionId, a.id, actor.userId);
    if (!s) throw notFound('submission');
    const parts = this.st<[string], { file_name: string; sha256: string }>(
      'SELECT sf.file_name, f.sha256 FROM submission_files sf JOIN files f ON f.id = sf.file_id WHERE sf.submission_id = ? ORDER BY sf.name',
    ).all(body.submissionId);
    const texts = parts.map((f) => ({ name: f.file_name, text: readFileSync(this.files.blobs.pathOf(f.sha256), 'utf8') }));
    const source = texts.length === 1 ? texts[0]!.text : texts.map((t) => `==== ${t.name} ====\n${t.text}`).join('\n\n');
    if (Buffer.byteLength(source) > PRINTOUT_SOURCE_MAX) throw ApiError.of('validation_failed', 'The submission is too long to print', { submissionId: ['too long to print'] });
    return { fileName: texts[0]?.name ?? 'submission', source, submissionId: body.submissionId, seriesProblemId: s.series_problem_id, title: s.problem_name };
  }

  async request(actor: Actor, idOrSlug: string, body: PrintoutRequest): Promise<Printout> {
    const a = await this.participantActivity(actor, idOrSlug);
    requireNotArchived(a);
    const c = this.content(actor, a, body);
    checkLength(c.source, 'source' in body ? 'source' : 'submissionId');
    const id = newId();
    const printout = this.d.tx.run((out) => {
      this.st(
        `INSERT INTO printouts (id, activity_id, user_id, title, file_name, source, size_bytes, sha256, submission_id, series_problem_id, state, requested_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', ?)`,
      ).run(id, a.id, actor.userId, body.title || c.title || c.fileName, c.fileName, c.source, Buffer.byteLength(c.source), sha256Hex(c.source), c.submissionId, c.seriesProblemId, iso(this.d.clock.now()));
      const r = this.row(id)!;
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
      this.st('UPDATE printouts SET print_started_at = ? WHERE id = ?').run(iso(this.d.clock.now()), id);
      const pdf = await this.render(this.row(id)!);
      const result = await runPrintCommand(command, pdf);
      this.st('UPDATE printouts SET print_finished_at = ?, print_exit_code = ?, print_output = ? WHERE id = ?').run(iso(this.d.clock.now()), result.exitCode, result.output, id);
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
    return this.page('o.activity_id = @activity AND o.user_id = @me', { activity: a.id, me: actor.userId }, q, actor.userId, 'DESC');
  }

  private page(where: string, params: Record<string, unknown>, q: { page?: number | undefined; pageSize?: number | undefined }, viewer: string, order: 'ASC' | 'DESC'): Page<Printout> {
    const { page, pageSize } = clampPaging(q);
    const total = this.st<[Record<string, unknown>], { n: number }>(`SELECT count(*) AS n ${FROM} WHERE ${where}`).get(params)!.n;
    const rows = this.st<[Record<string, unknown>], PrintoutRow>(`${PRINTOUT_SELECT} WHERE ${where} ORDER BY o.requested_at ${order}, o.id ${order} LIMIT @limit OFFSET @offset`).all({
      ...params,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return { items: rows.map((r) => toPrintout(r, viewer)), total, page, pageSize };
  }

  /** The activities whose printouts the caller handles. */
  private managedActivities(userId: string): { id: string; name: string; slug: string; printouts: number }[] {
    return this.st<[], { id: string; name: string; slug: string; printouts: number }>("SELECT id, name, slug, json_extract(modules, '$.printouts') AS printouts FROM activities ORDER BY name")
      .all()
      .filter((a) => this.manages(userId, a.id));
  }

  /** The queue, oldest first: what waits longest is printed first. */
  list(actor: Actor, q: z.output<typeof PrintoutsQuery>): Page<Printout> {
    let ids: string[];
    if (q.activityId) {
      this.d.permissions.require(actor, 'printout:manage', q.activityId);
      ids = [q.activityId];
    } else {
      ids = this.managedActivities(actor.userId).map((a) => a.id);
      if (!ids.length) throw forbidden('printout:manage');
    }
    const where = 'o.activity_id IN (SELECT value FROM json_each(@ids)) AND (@states IS NULL OR o.state IN (SELECT value FROM json_each(@states)))';
    return this.page(where, { ids: JSON.stringify(ids), states: q.state?.length ? JSON.stringify(q.state) : null }, q, actor.userId, 'ASC');
  }

  activities(actor: Actor): { id: string; name: string; slug: string }[] {
    return this.managedActivities(actor.userId)
      .filter((a) => a.printouts === 1)
      .map(({ id, name, slug }) => ({ id, name, slug }));
  }

  /** Staff read any printout of theirs; a requester reads their own (without the print job). */
  private readable(actor: Actor, id: string): { r: PrintoutRow; staff: boolean } {
    const r = this.row(id);
    const staff = !!r && this.manages(actor.userId, r.activity_id);
    if (!r || (!staff && r.user_id !== actor.userId)) throw notFound('printout');
    return { r, staff };
  }

  get(actor: Actor, id: string): PrintoutDetail {
    const { r, staff } = this.readable(actor, id);
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

  pdf(actor: Actor, id: string): Promise<Buffer> {
    return this.render(this.readable(actor, id).r);
  }

  /** One state change: checked, written, and told to the requester and the staff. */
  private transition(actor: Actor, id: string, change: (r: PrintoutRow, now: string) => void): Printout {
    return this.d.tx.run((out) => {
      const before = this.managed(actor, id);
      change(before, iso(this.d.clock.now()));
      const r = this.row(id)!;
      this.tellStaff(out, r);
      const { claimedByMe: _, ...signal } = toPrintout(r);
      out.emit(event('printoutStateChanged', { activityId: r.activity_id, printout: signal }, { kind: 'users', userIds: [r.user_id] }));
      return toPrintout(r, actor.userId);
    });
  }

  claim(actor: Actor, id: string): Printout {
    const r = this.managed(actor, id);
    if (r.state === 'claimed' && r.claimed_by_user_id === actor.userId) return toPrintout(r, actor.userId);
    if (r.state === 'claimed') throw ApiError.of('printout.claimed', `${toPrintout(r).claimedByName ?? 'Somebody'} has taken this printout`);
    if (r.state !== 'queued') throw ApiError.of('printout.state', 'The printout is resolved');
    return this.transition(actor, id, (_, now) => this.st("UPDATE printouts SET state = 'claimed', claimed_by_user_id = ?, claimed_at = ? WHERE id = ?").run(actor.userId, now, id));
  }

  release(actor: Actor, id: string): Printout {
    const r = this.managed(actor, id);
    if (r.state !== 'claimed') throw ApiError.of('printout.state', r.state === 'queued' ? 'The printout is not taken' : 'The printout is resolved');
    return this.transition(actor, id, () => this.st("UPDATE printouts SET state = 'queued', claimed_by_user_id = NULL, claimed_at = NULL WHERE id = ?").run(id));
  }

  resolve(actor: Actor, id: string, note: string | undefined): Printout {
    const r = this.managed(actor, id);
    if (r.state === 'resolved') throw ApiError.of('printout.state', 'The printout is already resolved');
    return this.transition(actor, id, (_, now) =>
      this.st("UPDATE printouts SET state = 'resolved', resolved_by_user_id = ?, resolved_at = ?, note = ? WHERE id = ?").run(actor.userId, now, note ?? null, id),
    );
  }
}
