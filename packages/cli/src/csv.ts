/** One record of a CSV file and the line it starts on (1-based, the header is line 1). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/**
 * Parses RFC 4180 CSV: comma-separated, fields optionally in double quotes ("" is a quote inside
 * them, and they may span lines), CRLF or LF line breaks, an optional byte-order mark. Blank lines
 * are skipped. Every record keeps the number of the line it starts on, for messages.
 */
export function parseCsv(text: string): CsvRecord[] {
  const s = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let line = 1;
  let i = 0;
  while (i < s.length) {
    const start = line;
    const fields: string[] = [];
    let field = '';
    let ended = false;
    while (!ended) {
      if (s[i] === '"') {
        i++;
        for (;;) {
          if (i >= s.length) throw new CsvSyntaxError(start, 'a quoted field is not closed');
          const ch = s[i]!;
          if (ch === '"') {
            if (s[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (ch === '\n') line++;
          field += ch;
          i++;
        }
        if (i < s.length && s[i] !== ',' && s[i] !== '\n' && s[i] !== '\r') throw new CsvSyntaxError(line, 'text after a closing quote (a quote inside a quoted field is written "")');
      } else {
        while (i < s.length && s[i] !== ',' && s[i] !== '\n' && s[i] !== '\r') {
          if (s[i] === '"') throw new CsvSyntaxError(line, 'a quote inside an unquoted field (put the field in quotes and double the quote)');
          field += s[i];
          i++;
        }
      }
      fields.push(field);
      field = '';
      if (i >= s.length) ended = true;
      else if (s[i] === ',') i++;
      else {
        if (s[i] === '\r') i++;
        if (s[i] === '\n') i++;
        line++;
        ended = true;
      }
    }
    if (!(fields.length === 1 && fields[0]!.trim() === '')) records.push({ line: start, fields });
  }
  return records;
}

/** A CSV field, quoted when it has to be. */
export function csvField(v: string | undefined): string {
  const s = v ?? '';
  return /[",\r\n]/.test(s) || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (values: (string | undefined)[]) => `${values.map(csvField).join(',')}\r\n`;
