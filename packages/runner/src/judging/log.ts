const LOG_LIMIT = 64 * 1024;

export const trim = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The `log` attachment: at most LOG_LIMIT characters, the closing lines always kept. */
export class Log {
  private parts: string[] = [];
  private size = 0;
  private trimmed = false;
  /** Room kept for the closing lines (verdict, judge error). */
  private static readonly RESERVE = 2048;
  add(text: string, closing = false): void {
    if (!text) return;
    let t = text.endsWith('\n') ? text : `${text}\n`;
    if (closing) t = trim(t, Log.RESERVE);
    const budget = closing ? LOG_LIMIT : LOG_LIMIT - Log.RESERVE;
    if (this.size + t.length > budget) {
      if (this.trimmed && !closing) return;
      const room = Math.max(0, budget - this.size - 20);
      this.parts.push(t.slice(0, room), '… (log trimmed)\n');
      this.trimmed = true;
      this.size = budget;
      return;
    }
    this.parts.push(t);
    this.size += t.length;
  }
  toString(): string {
    return this.parts.join('');
  }
}
