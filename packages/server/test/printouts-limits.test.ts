import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ops, PRINTOUT_LINES_MAX, PRINTOUT_PAGES_MAX, type Activity } from '@judge/contract';
import { layoutOf } from '../src/modules/printouts/layout.js';
import { wrap } from '../src/modules/printouts/pdf.js';
import { refusedWith } from './expect.js';
import { TestJudge, type Party } from './harness.js';
import { askToPrint, LONG_PROGRAM, ONE_LONG_LINE, printoutWorld } from './support/heavy-inputs.js';
import { printouts } from '../src/db/schema.js';

/**
 * Printouts within bounds: a source past the line or page limit is refused
 * with printout.tooLong before anything is stored; the PDF is made once on the bounded pool and the
 * kept file is served again; a PDF whose making runs out of its time is a 422, not a 500; and the
 * wrapping of a long line is linear.
 */

let j: TestJudge;
let act: Activity;
let alice: Party;
let staff: Party;
const rows = async () => JSON.stringify(await j.app.deps.tx.read((q) => q.select().from(printouts).orderBy(printouts.id)));
const pdfDir = () => join(j.dataDir, 'files', '.printouts');
const fetchPdf = (id: string) => staff.c.call(ops.getPrintoutPdf, { params: { id } }) as Promise<ArrayBuffer>;

beforeAll(async () => {
  j = await TestJudge.start();
  ({ act, alice, staff } = await printoutWorld(j, 'bounded-print'));
});
afterAll(() => j.stop());

describe('printout limits', { timeout: 120_000 }, () => {
  it(`takes ${PRINTOUT_LINES_MAX} lines and refuses one more: 422 printout.tooLong, nothing stored`, async () => {
    await askToPrint(alice, act, 'ok.txt', 'x\n'.repeat(PRINTOUT_LINES_MAX - 1) + 'x');
    const before = await rows();
    const e = await refusedWith(askToPrint(alice, act, 'long.txt', 'x\n'.repeat(PRINTOUT_LINES_MAX)), 422, 'printout.tooLong');
    expect(e.detail).toContain(`${PRINTOUT_LINES_MAX + 1} lines`);
    expect(await rows()).toBe(before);
  });

  it(`refuses a source that would take more than ${PRINTOUT_PAGES_MAX} pages within the line limit`, async () => {
    // few lines, but one of them wraps onto thousands of rows
    const source = '\n'.repeat(PRINTOUT_LINES_MAX - 1) + 'y'.repeat(250 * 1024);
    expect(layoutOf(source).pages).toBeGreaterThan(PRINTOUT_PAGES_MAX);
    const before = await rows();
    const e = await refusedWith(askToPrint(alice, act, 'wide.txt', source), 422, 'printout.tooLong');
    expect(e.detail).toMatch(/would take \d+ pages/);
    expect(await rows()).toBe(before);
  });

  it('the largest printouts allowed are within both limits', () => {
    for (const source of [ONE_LONG_LINE, LONG_PROGRAM]) {
      const l = layoutOf(source);
      expect(l.lines).toBeLessThanOrEqual(PRINTOUT_LINES_MAX);
      expect(l.pages).toBeLessThanOrEqual(PRINTOUT_PAGES_MAX);
    }
  });
});

describe('the PDF', { timeout: 120_000 }, () => {
  it('is made once on the pool and kept: a repeated fetch serves the kept file without making it again', async () => {
    const p = await askToPrint(alice, act, 'big.cpp', LONG_PROGRAM);
    const made = j.app.services.printouts.renders;
    const first = Buffer.from(await fetchPdf(p.id));
    expect(first.subarray(0, 5).toString()).toBe('%PDF-');
    expect(j.app.services.printouts.renders).toBe(made + 1);
    expect(readdirSync(pdfDir()).filter((n) => n.startsWith(p.id))).toHaveLength(1);
    // twice more, at once and after: the same bytes, nothing made
    const again = await Promise.all([fetchPdf(p.id), fetchPdf(p.id)]);
    for (const a of again) expect(Buffer.from(a).equals(first)).toBe(true);
    expect(j.app.services.printouts.renders).toBe(made + 1);
  });

  it('two fetches at once of a PDF not yet made make it once', async () => {
    const p = await askToPrint(alice, act, 'twice.py', 'print(1)\n'.repeat(50));
    const made = j.app.services.printouts.renders;
    const [a, b] = await Promise.all([fetchPdf(p.id), fetchPdf(p.id)]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(j.app.services.printouts.renders).toBe(made + 1);
  });

  it('goes when the retention worker disposes of the source, and only then', async () => {
    const p = await askToPrint(alice, act, 'gone.c', 'int main() {}\n');
    // not resolved: its source is kept, and so is its PDF
    const kept = await askToPrint(alice, act, 'kept.c', 'int main() { return 0; }\n');
    await fetchPdf(p.id);
    await fetchPdf(kept.id);
    const fileOf = (id: string) => () => readdirSync(pdfDir()).find((n) => n.startsWith(id));
    const file = fileOf(p.id);
    expect(file()).toBeDefined();
    await staff.c.call(ops.resolvePrintout, { params: { id: p.id }, body: {} });
    const removed = await j.app.retention.tick(new Date(Date.now() + 8 * 24 * 3_600_000));
    expect(removed.printoutPdfs).toBeGreaterThanOrEqual(1);
    expect(file()).toBeUndefined();
    expect(fileOf(kept.id)()).toBeDefined();
    await refusedWith(fetchPdf(p.id), 409, 'printout.state');
  });

  it('the probe\'s 256 KiB single line is printed, on 40-odd pages', async () => {
    const p = await askToPrint(alice, act, 'line.cpp', ONE_LONG_LINE);
    const pdf = Buffer.from(await fetchPdf(p.id));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(layoutOf(ONE_LONG_LINE).pages).toBeGreaterThan(40);
  });
});

describe('wrapping', { timeout: 120_000 }, () => {
  it('cuts a line into rows of the width, joining runs of one class, in linear time', () => {
    expect(wrap([{ text: 'abcde', cls: 'k' }, { text: 'fg', cls: 'k' }, { text: 'hij', cls: '' }], 3)).toEqual([
      [{ text: 'abc', cls: 'k' }],
      [{ text: 'def', cls: 'k' }],
      [{ text: 'g', cls: 'k' }, { text: 'hi', cls: '' }],
      [{ text: 'j', cls: '' }],
    ]);
    expect(wrap([], 5)).toEqual([[]]);
  });
});

describe('a PDF whose making runs out of its time', { timeout: 120_000 }, () => {
  let tight: TestJudge;
  beforeAll(async () => {
    tight = await TestJudge.start({ offloop: { limits: { printout: { timeoutMs: 1 } } } });
  });
  afterAll(() => tight.stop());

  it('is refused, 422 printout.render naming why, and the server goes on', async () => {
    const w = await printoutWorld(tight, 'tight-print');
    const p = await askToPrint(w.alice, w.act, 'line.cpp', ONE_LONG_LINE);
    const e = await refusedWith(w.staff.c.call(ops.getPrintoutPdf, { params: { id: p.id } }), 422, 'printout.render');
    expect(e.detail).toMatch(/longer than allowed/);
    expect(existsSync(join(tight.dataDir, 'files', '.printouts')) ? readdirSync(join(tight.dataDir, 'files', '.printouts')) : []).toEqual([]);
    expect((await fetch(`${tight.url}/api/v1/health`)).status).toBe(200);
  });
});
