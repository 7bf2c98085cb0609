/**
 * Where a printout's text falls on A4 pages, computed in one pass over the source without rendering
 * anything: the request is refused by it before any PDF is made (printout.tooLong), and pdf.ts
 * places its rows by the same numbers.
 */
import { PRINTOUT_LINES_MAX, PRINTOUT_PAGES_MAX } from '@judge/contract';

export const FONT_SIZE = 9;
export const LINE = 11;
export const MARGIN = 36;
export const HEADER = 28;
/** Courier's advance is 600/1000 of its size. */
export const CHAR = FONT_SIZE * 0.6;
/** PDFKit's A4, in points. */
export const PAGE = { width: 595.28, height: 841.89 };
export const ROWS_PER_PAGE = Math.floor((PAGE.height - MARGIN - (MARGIN + HEADER)) / LINE);

/** The text as printed: line ends made one, tabs as four spaces. */
export const normalised = (source: string): string => source.replace(/\r\n?/g, '\n').replace(/\t/g, '    ');

export interface Layout {
  lines: number;
  /** Digits of the largest line number. */
  digits: number;
  /** Characters a row holds. */
  width: number;
  rows: number;
  pages: number;
}

export function layoutOf(source: string): Layout {
  const text = normalised(source);
  let lines = 0;
  let longRows = 0;
  // a first pass counts the lines, which decide the number column and so the row width
  const lengths: number[] = [];
  for (let start = 0; start <= text.length; ) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    lengths.push(stop - start);
    lines++;
    start = stop + 1;
  }
  const digits = String(lines).length;
  const width = Math.floor((PAGE.width - MARGIN - (MARGIN + (digits + 1) * CHAR)) / CHAR);
  for (const n of lengths) longRows += Math.max(1, Math.ceil(n / width));
  return { lines, digits, width, rows: longRows, pages: Math.max(1, Math.ceil(longRows / ROWS_PER_PAGE)) };
}

/** Why the source is not printed, or undefined when it fits the limits. */
export function tooLong(source: string): string | undefined {
  const l = layoutOf(source);
  if (l.lines > PRINTOUT_LINES_MAX) return `it has ${l.lines} lines; at most ${PRINTOUT_LINES_MAX} are printed`;
  if (l.pages > PRINTOUT_PAGES_MAX) return `it would take ${l.pages} pages; at most ${PRINTOUT_PAGES_MAX} are printed`;
  return undefined;
}
