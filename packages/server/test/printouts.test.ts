import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, type Activity, type Printout } from '@judge/contract';
import type { JudgeClient } from '@judge/sdk';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { refusedWith, sendJson } from './expect.js';
import { TestJudge, type Party } from './harness.js';
import { barrier, open, types } from './support/socket.js';
import { until } from './support/wait.js';
import { printouts } from '../src/db/schema.js';

/**
 * Printouts over real HTTP and the socket (decisions §6, §7, §9; interface "Printouts"): requests,
 * the staff's queue and its state rules, who hears what, the PDF, the printing command and the
 * disposal of sources.
 */

let j: TestJudge;
let admin: JudgeClient;
let act: Activity;
let staff: Party;
let staff2: Party;
let mgr: Party;
let alice: Party;
let bob: Party;
let outsider: Party;
const printed = mkdtempSync(join(tmpdir(), 'judge-printed-'));
const OUT = join(printed, 'out.pdf');
/** The 14 standard fonts' metrics pdf.js reads text with, from its own package. */
const FONTS = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';
const squash = (s: string) => s.replace(/\s+/g, ' ');

/**
 * The printouts table once every print job has finished: the printing command runs in the
 * background and writes its outcome when it ends, which is not what a refusal may change.
 */
async function snapshot(): Promise<string> {
  await Promise.all(j.app.services.printouts.printing);
  return JSON.stringify(await j.app.deps.tx.read((q) => q.select().from(printouts).orderBy(printouts.id)));
}
async function refused(call: Promise<unknown>, status: number, code: string) {
  // the refusal may arrive while the snapshot waits for a print job: it is looked at below, not lost
  call.catch(() => {});
  const before = await snapshot();
  await refusedWith(call, status, code);
  expect(await snapshot()).toBe(before);
}

const SOURCE = ['#include <stdio.h>', 'int main(void) {', '  printf("hello %d\\n", 42); // greet', '  return 0;', '}'].join('\n');
const ask = (p: Party, body: Record<string, string> = {}) =>
  p.c.call(ops.requestPrintout, { params: { idOrSlug: act.slug }, body: { fileName: 'hello.c', source: SOURCE, ...body } as never });
const detail = (p: Party, id: string) => p.c.call(ops.getPrintout, { params: { id } });

async function party(name: string, role?: string): Promise<Party> {
  const u = await j.user(name);
  if (role) await j.grant(u.id, role, act.id);
  return { u, c: await j.signIn(u, 'cookie') };
}

async function pdfText(bytes: ArrayBuffer | Buffer): Promise<{ pages: number; text: string }> {
  const doc = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: FONTS }).promise;
  let text = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    text += content.items.map((it) => ('str' in it ? it.str : '')).join('') + '\n';
  }
  return { pages: doc.numPages, text: squash(text) };
}

/** The fill colours the first page paints text with: the highlighting. */
async function pdfColours(bytes: Buffer): Promise<Set<string>> {
  const doc = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: FONTS }).promise;
  const list = await (await doc.getPage(1)).getOperatorList();
  const out = new Set<string>();
  list.fnArray.forEach((fn, i) => fn === OPS.setFillRGBColor && out.add(String(list.argsArray[i]![0])));
  return out;
}

beforeAll(async () => {
  j = await TestJudge.start({ config: { printing: { command: `cat > '${OUT}'; echo sent to the printer` } } });
  admin = await j.admin();
  act = await admin.call(ops.createActivity, { body: { slug: 'print', name: 'Printing', type: 'contest@1', rankingType: 'icpc', timeZone: 'Europe/Warsaw', modules: { printouts: true } } });
  await admin.call(ops.createRole, { body: { name: 'Printer', permissions: ['printout:manage', 'activity:read'] } as never });
  // staff of the activity who do not work printouts (the built-in manager does since migration 0011)
  await admin.call(ops.createRole, { body: { name: 'Answerer', permissions: ['activity:read', 'question:read:all', 'question:answer'] } as never });
  staff = await party('runner-of-paper', 'Printer');
  staff2 = await party('second-printer', 'Printer');
  mgr = await party('pmgr', 'Answerer');
  alice = await party('alice', 'participant');
  bob = await party('bob', 'participant');
  outsider = await party('outsider');
  await admin.call(ops.updateUser, { params: { id: alice.u.id }, body: { tags: ['team-7'] } });
});
afterAll(async () => {
  await j.stop();
  rmSync(printed, { recursive: true, force: true });
});

describe('requests', () => {
  it('a participant asks to print a file: 201, queued, printed through the configured command', { timeout: 90_000 }, async () => {
    const p = await ask(alice, { title: 'My solution' });
    expect(p).toMatchObject({ state: 'queued', title: 'My solution', fileName: 'hello.c', requestedByName: 'alice', groupName: 'team-7', sizeBytes: Buffer.byteLength(SOURCE), claimedByMe: false });
    // the PDF is made on a worker thread (which, under the tests, first loads its TypeScript)
    await until('the print job to finish', async () => (await detail(staff, p.id)).printJob?.exitCode !== undefined, 60_000);
    const d = await detail(staff, p.id);
    expect(d.printJob).toMatchObject({ exitCode: 0, output: 'sent to the printer\n' });
    expect(d).toMatchObject({ timeZone: 'Europe/Warsaw', source: SOURCE });
    // the PDF the printer got: header with participant, title, file, time in the activity's zone, page numbers; numbered, highlighted lines
    const { pages, text } = await pdfText(readFileSync(OUT));
    expect(pages).toBe(1);
    const zoned = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Warsaw', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).format(new Date(p.requestedAt));
    expect(text).toContain('alice - My solution');
    expect(text).toContain(`${zoned} (Europe/Warsaw)`);
    expect(text).toContain('Page 1 of 1');
    for (const [i, line] of SOURCE.split('\n').entries()) expect(text).toContain(squash(`${i + 1} ${line}`));
    // keywords, strings and comments each in their colour, line numbers in grey
    const colours = await pdfColours(readFileSync(OUT));
    for (const c of ['#0033b3', '#a31515', '#008000', '#888888']) expect(colours).toContain(c);
  });

  it('a long source runs over pages, each numbered of the whole', { timeout: 90_000 }, async () => {
    const long = Array.from({ length: 100 }, (_, i) => `x = ${i}`).join('\n');
    const p = await ask(bob, { fileName: 'long.py', source: long });
    const res = await staff.c.call(ops.getPrintoutPdf, { params: { id: p.id } });
    const { pages, text } = await pdfText(res);
    expect(pages).toBe(2);
    expect(text).toContain('Page 2 of 2');
    expect(text).toContain('100 x = 99');
    await until('the print job to finish', async () => (await detail(staff, p.id)).printJob?.exitCode === 0, 60_000);
  });

  it('refuses bad input, outsiders, and a switched-off module, changing nothing', async () => {
    const token = (await j.signIn(alice.u)).accessToken;
    for (const body of [{}, { fileName: 'a.c' }, { fileName: 'a.c', source: '' }, { fileName: 'a.c', source: 'x'.repeat(256 * 1024 + 1) }, { submissionId: 'nope' }]) {
      const before = await snapshot();
      const res = await sendJson(j.url, 'POST', `/activities/${act.slug}/printouts`, token, body);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'validation_failed' });
      expect(await snapshot()).toBe(before);
    }
    await refused(alice.c.call(ops.requestPrintout, { params: { idOrSlug: act.slug }, body: { submissionId: '0190a0a0-0000-7000-8000-000000000000' } }), 404, 'not_found');
    await refused(ask(outsider), 404, 'not_found');
    // an activity open to all: a non-member sees it but may not print there
    const openAct = await admin.call(ops.createActivity, { body: { slug: 'open-print', name: 'Open', type: 'contest@1', rankingType: 'icpc', timeZone: 'UTC', joinPolicy: 'open', unlisted: false, modules: { printouts: true } } });
    await refused(outsider.c.call(ops.requestPrintout, { params: { idOrSlug: openAct.slug }, body: { fileName: 'a.c', source: 'x' } }), 403, 'forbidden');
    await admin.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, modules: { printouts: false } } });
    await refused(ask(alice), 403, 'printouts.disabled');
    await refused(alice.c.call(ops.listOwnPrintouts, { params: { idOrSlug: act.slug } }), 403, 'printouts.disabled');
    expect(await staff.c.call(ops.listPrintoutActivities, {})).toEqual([]);
    await admin.call(ops.updateActivity, { params: { idOrSlug: act.slug }, body: { slug: act.slug, modules: { printouts: true } } });
    expect(await staff.c.call(ops.listPrintoutActivities, {})).toEqual([{ id: act.id, name: 'Printing', slug: 'print' }]);
  });

  it('participants see only their own requests', async () => {
    const mine = await alice.c.call(ops.listOwnPrintouts, { params: { idOrSlug: act.slug } });
    expect(mine.items.every((p) => p.requestedByName === 'alice')).toBe(true);
    const bobs = (await bob.c.call(ops.listOwnPrintouts, { params: { idOrSlug: act.slug } })).items[0]!;
    await refused(detail(alice, bobs.id), 404, 'not_found');
    await refused(alice.c.call(ops.getPrintoutPdf, { params: { id: bobs.id } }), 404, 'not_found');
    expect((await detail(bob, bobs.id)).printJob).toBeUndefined();
    await refusedWith(alice.c.call(ops.listPrintouts, {}), 403, 'forbidden');
    await refusedWith(mgr.c.call(ops.listPrintouts, { query: { activityId: act.id } }), 403, 'forbidden');
  });
});

describe('the queue', () => {
  let p: Printout;

  it('lists oldest first with state and activity filters (empty state: no filter)', async () => {
    p = await ask(alice, { title: 'Queue me' });
    const queued = await staff.c.call(ops.listPrintouts, { query: { activityId: act.id, state: 'queued' } as never });
    expect(queued.items.map((x) => x.state)).toEqual(queued.items.map(() => 'queued'));
    expect(queued.items[queued.items.length - 1]!.id).toBe(p.id);
    const res = await sendJson(j.url, 'GET', '/printouts?state=', (await j.signIn(staff.u)).accessToken);
    expect(res.body.total).toBe(queued.total);
    const bad = await sendJson(j.url, 'GET', '/printouts?state=lost', (await j.signIn(staff.u)).accessToken);
    expect(bad.status).toBe(422);
  });

  it('claim, release and resolve follow the state rules and tell the requester and printout:manage holders only', async () => {
    const s = { staff: await open(staff.c), mgr: await open(mgr.c), alice: await open(alice.c), bob: await open(bob.c) };
    const all = () => barrier(admin, [s.staff, s.mgr, s.alice, s.bob]);

    await refused(alice.c.call(ops.claimPrintout, { params: { id: p.id } }), 403, 'forbidden');
    await refused(bob.c.call(ops.claimPrintout, { params: { id: p.id } }), 404, 'not_found');
    await refused(mgr.c.call(ops.claimPrintout, { params: { id: p.id } }), 404, 'not_found');
    await refused(staff.c.call(ops.releasePrintout, { params: { id: p.id } }), 409, 'printout.state');

    const claimed = await staff.c.call(ops.claimPrintout, { params: { id: p.id } });
    expect(claimed).toMatchObject({ state: 'claimed', claimedByName: 'runner-of-paper', claimedByMe: true });
    const [sf, mf, af, bf] = await all();
    expect(types(sf!)).toEqual(['printoutChanged']);
    expect(sf![0]!.data).toMatchObject({ activityId: act.id, printout: { id: p.id, state: 'claimed' } });
    expect((sf![0]!.data as { printout: object }).printout).not.toHaveProperty('claimedByMe');
    expect(types(af!)).toEqual(['printoutStateChanged']);
    expect([types(mf!), types(bf!)]).toEqual([[], []]);

    expect(await staff.c.call(ops.claimPrintout, { params: { id: p.id } })).toMatchObject({ state: 'claimed' });
    await refused(staff2.c.call(ops.claimPrintout, { params: { id: p.id } }), 409, 'printout.claimed');
    expect((await detail(staff2, p.id)).printout.claimedByMe).toBe(false);
    // any holder of printout:manage may hand it back
    expect(await staff2.c.call(ops.releasePrintout, { params: { id: p.id } })).toMatchObject({ state: 'queued' });
    await all();

    const before = await snapshot();
    const bad = await sendJson(j.url, 'POST', `/printouts/${p.id}/resolve`, (await j.signIn(staff.u)).accessToken, { note: 5 });
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 422, code: 'validation_failed' });
    expect(await snapshot()).toBe(before);
    const resolved = await staff.c.call(ops.resolvePrintout, { params: { id: p.id }, body: { note: 'delivered to seat 7' } });
    expect(resolved).toMatchObject({ state: 'resolved', resolvedByName: 'runner-of-paper' });
    const [sf2, mf2, af2] = await all();
    expect(types(sf2!)).toEqual(['printoutChanged']);
    expect(types(af2!)).toEqual(['printoutStateChanged']);
    expect(types(mf2!)).toEqual([]);
    await refused(staff.c.call(ops.resolvePrintout, { params: { id: p.id }, body: {} }), 409, 'printout.state');
    await refused(staff.c.call(ops.claimPrintout, { params: { id: p.id } }), 409, 'printout.state');
    await refused(staff.c.call(ops.releasePrintout, { params: { id: p.id } }), 409, 'printout.state');
    Object.values(s).forEach((x) => x.close());
  });

  it('a request tells printout:manage holders (printoutChanged), not other staff', async () => {
    const s = { staff: await open(staff.c), mgr: await open(mgr.c) };
    await ask(bob);
    const [sf, mf] = await barrier(admin, [s.staff, s.mgr]);
    expect(types(sf!)).toEqual(['printoutChanged']);
    expect(types(mf!)).toEqual([]);
    Object.values(s).forEach((x) => x.close());
  });

  it('sources are disposed 7 days after resolution by the retention worker', async () => {
    const now = Date.now();
    expect((await j.app.retention.tick(new Date(now + 6 * 86_400_000))).printoutSources).toBe(0);
    expect((await j.app.retention.tick(new Date(now + 8 * 86_400_000))).printoutSources).toBe(1);
    const d = await detail(staff, p.id);
    expect(d.source).toBe('');
    expect(d.printout.sourceDisposedAt).toBeDefined();
    await refusedWith(staff.c.call(ops.getPrintoutPdf, { params: { id: p.id } }), 409, 'printout.state');
    expect(existsSync(OUT)).toBe(true);
  });
});
