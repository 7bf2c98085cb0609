import PDFDocument from 'pdfkit';
import { highlightLines, languageOf, type Token } from './highlight.js';
import { CHAR, FONT_SIZE, HEADER, layoutOf, LINE, MARGIN } from './layout.js';

export interface PrintoutPage {
  participant: string;
  /** The problem's name, or the title given. */
  subject: string;
  fileName: string;
  /** When it was asked for, already in the activity's time zone. */
  time: string;
  source: string;
  language?: string | undefined;
}

const COLOURS: Record<string, string> = {
  keyword: '#0033b3',
  built_in: '#267f99',
  type: '#267f99',
  literal: '#0033b3',
  number: '#098658',
  string: '#a31515',
  regexp: '#a31515',
  comment: '#008000',
  doctag: '#008000',
  meta: '#af00db',
  title: '#795e26',
  params: '#001080',
  attr: '#001080',
  variable: '#001080',
};

/** Courier speaks WinAnsi only: anything else prints as a question mark rather than as garbage. */
const printable = (s: string) => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

/** A time in a zone as `2026-11-24 09:15 (Europe/Warsaw)`. */
export function zonedTime(instant: string, timeZone: string): string {
  const f = new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' });
  return `${f.format(new Date(instant))} (${timeZone})`;
}

/**
 * Splits a line of tokens into rows no wider than `width` characters, in time linear in the line
 * (each token is cut by offsets, never copied again for what is left of it); neighbouring runs of
 * one class are joined, so that each row draws few pieces of text.
 */
export function wrap(tokens: Token[], width: number): Token[][] {
  const rows: Token[][] = [[]];
  let used = 0;
  for (const t of tokens) {
    for (let at = 0; at < t.text.length; ) {
      if (used === width) {
        rows.push([]);
        used = 0;
      }
      const take = Math.min(width - used, t.text.length - at);
      const row = rows[rows.length - 1]!;
      const last = row[row.length - 1];
      const text = t.text.slice(at, at + take);
      if (last && last.cls === t.cls) last.text += text;
      else row.push({ text, cls: t.cls });
      used += take;
      at += take;
    }
  }
  return rows;
}

/**
 * The printout as a PDF: a header on every page (participant, problem, file, time in the
 * activity's zone, page n of m), numbered lines, highlighted source. Fonts are the standard
 * Courier and Helvetica that every PDF reader has, so nothing is embedded or fetched.
 */
export function renderPrintout(p: PrintoutPage): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, bufferPages: true, info: { Title: `${p.subject} (${p.participant})`, Creator: 'judge' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const lines = highlightLines(p.source, languageOf(p.fileName, p.language));
  const { digits, width } = layoutOf(p.source);
  const left = MARGIN + (digits + 1) * CHAR;
  const top = MARGIN + HEADER;
  const bottom = doc.page.height - MARGIN;
  let y = top;
  doc.font('Courier').fontSize(FONT_SIZE);
  lines.forEach((tokens, i) => {
    wrap(tokens, width).forEach((row, r) => {
      if (y + LINE > bottom) {
        doc.addPage();
        y = top;
      }
      if (r === 0) doc.fillColor('#888888').text(String(i + 1).padStart(digits), MARGIN, y, { lineBreak: false });
      let x = left;
      for (const t of row) {
        doc.fillColor(COLOURS[t.cls] ?? '#000000').text(printable(t.text), x, y, { lineBreak: false });
        x += t.text.length * CHAR;
      }
      y += LINE;
    });
  });
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    const headerY = MARGIN;
    doc.font('Helvetica-Bold').fontSize(10).fillColor('#000000');
    doc.text(printable(`${p.participant} - ${p.subject}`), MARGIN, headerY, { lineBreak: false });
    doc.font('Helvetica').fontSize(8);
    doc.text(printable(`${p.fileName}   ${p.time}`), MARGIN, headerY + 12, { lineBreak: false });
    const pageText = `Page ${i + 1} of ${range.count}`;
    doc.text(pageText, doc.page.width - MARGIN - doc.widthOfString(pageText), headerY, { lineBreak: false });
    doc.moveTo(MARGIN, headerY + 23).lineTo(doc.page.width - MARGIN, headerY + 23).strokeColor('#999999').lineWidth(0.5).stroke();
  }
  doc.end();
  return done;
}
