// csv-parse's browser build: the same parser with its Buffer bundled and no eval, so it runs in
// Node (judgectl) and under the web app's strict CSP alike
import { CsvError, parse } from 'csv-parse/browser/esm/sync';

/** One record of a CSV file and the line it starts on (1-based, the header is line 1). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** A parsed file: its records and the separator it was written with. */
export interface CsvTable {
  records: CsvRecord[];
  separator: string;
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** The separators a class list may use: comma (RFC 4180), semicolon (a spreadsheet where the comma is the decimal point, as German Excel) and tab. */
const SEPARATORS = [',', ';', '\t'] as const;

/** The words for what csv-parse refuses, as a person fixing the file needs them. */
const SYNTAX: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is not closed',
  INVALID_OPENING_QUOTE: 'a quote inside an unquoted field (put the field in quotes and double the quote)',
  CSV_INVALID_CLOSING_QUOTE: 'text after a closing quote (a quote inside a quoted field is written "")',
};

/**
 * The separator of a file: an Excel `sep=;` first line names it; else whichever of comma,
 * semicolon and tab the header line (outside quotes) holds most of, comma on a tie.
 */
function separatorOf(firstLine: string): { separator: string; sepLine: boolean } {
  const named = /^sep=(.)$/i.exec(firstLine);
  if (named) return { separator: named[1]!, sepLine: true };
  const unquoted = firstLine.replace(/"[^"]*"/g, '');
  const count = (c: string) => unquoted.split(c).length - 1;
  const best = SEPARATORS.reduce((a, b) => (count(b) > count(a) ? b : a));
  return { separator: best, sepLine: false };
}

/**
 * Parses a CSV file as spreadsheets write it, with csv-parse: comma-, semicolon- or tab-separated
 * (told by the header line, or Excel's `sep=` line), fields optionally in double quotes ("" is a
 * quote inside them, and they may span lines), CRLF or LF line breaks, an optional byte-order mark.
 * Blank lines and lines of empty fields (what a spreadsheet saves for an empty row) are skipped.
 * Every record keeps the number of the line it starts on, for messages.
 */
export function readCsv(text: string): CsvTable {
  // one line break everywhere, so that csv-parse counts each as one line
  const s = (text.startsWith('\uFEFF') ? text.slice(1) : text).replace(/\r\n?/g, '\n');
  const firstLine = s.split('\n', 1)[0]!;
  const { separator, sepLine } = separatorOf(firstLine.trim());
  let rows: { record: string[]; info: { lines: number }; raw: string }[];
  try {
    // with `info` and `raw` csv-parse answers each record with its line count and text
    rows = parse(s, {
      delimiter: separator,
      from_line: sepLine ? 2 : 1,
      relax_column_count: true,
      info: true,
      raw: true,
    }) as unknown as typeof rows;
  } catch (e) {
    if (e instanceof CsvError) throw new CsvSyntaxError((e as CsvError & { lines?: number }).lines ?? 1, SYNTAX[e.code] ?? e.message);
    throw e;
  }
  // blank lines are skipped here rather than by csv-parse, whose line count then goes wrong
  const records = rows
    .filter(({ record }) => record.some((f) => f.trim() !== ''))
    .map(({ record, info, raw }) => {
      const inner = raw.replace(/\n$/, '').split('\n').length - 1;
      return { line: info.lines - inner, fields: record };
    });
  return { records, separator };
}

/**
 * A file's text: UTF-8 (with or without a byte-order mark), else Windows-1252, which Excel's plain
 * "CSV" format writes on a Western European Windows. Says which, for a note to the user.
 */
export function decodeCsv(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'windows-1252' } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}

/** The records of a CSV file, as readCsv reads them. */
export function parseCsv(text: string): CsvRecord[] {
  return readCsv(text).records;
}

// writing CSV is shared with the web app's standings download, so it lives in the SDK
export { CSV_BOM, csvField, csvLine } from '@judge/sdk';
