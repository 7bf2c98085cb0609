import Table from 'cli-table3';

/** Options every command takes. */
export interface JsonOption {
  json?: boolean;
}

/** Prints `value` as JSON with --json, else the text `render` makes. */
export function emit(o: JsonOption, value: unknown, render: () => string): void {
  console.log(o.json ? JSON.stringify(value, null, 2) : render());
}

/** A plain table (no colours: the output is read by people and by `grep` alike). */
export function table(head: string[], rows: (string | number | boolean | undefined | null)[][]): string {
  const t = new Table({ head, style: { head: [], border: [], compact: true } });
  for (const r of rows) t.push(r.map((c) => (c === undefined || c === null ? '' : typeof c === 'boolean' ? (c ? 'yes' : '') : String(c))));
  return t.toString();
}

/** Two columns of labels and values, for one record. */
export function fields(pairs: [string, string | number | boolean | undefined | null][]): string {
  const t = new Table({ style: { head: [], border: [], compact: true } });
  for (const [k, v] of pairs) t.push({ [k]: v === undefined || v === null ? '' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v) });
  return t.toString();
}

/** An instant as the server writes it, shortened for a table: `2026-11-22 08:00:00Z`. */
export function when(iso: string | undefined | null): string {
  return iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '';
}

/** A line on standard error for what happens meanwhile (never mixed into --json output). */
export function note(message: string): void {
  process.stderr.write(`${message}\n`);
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
