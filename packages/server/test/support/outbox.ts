import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { until } from './wait.js';

/** A message the judge wrote to DATA_DIR/outbox/ (no SMTP server set), as its reader would see it. */
export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  text: string;
  /** The mailed code, e.g. K7QF-2M9X-RT4P-8HWB, when the message carries one. */
  code: string | undefined;
  /** The links of the plain text, in order. */
  links: string[];
}

const CODE = /\b([0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4})\b/;

async function read(dir: string, file: string): Promise<OutboxMail> {
  const mail = await simpleParser(readFileSync(join(dir, file)));
  const text = mail.text ?? '';
  const to = [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address ?? ''));
  return { file, to: to.join(', '), subject: mail.subject ?? '', text, code: CODE.exec(text)?.[1], links: text.match(/https?:\/\/\S+/g) ?? [] };
}

/**
 * Waits for a message to `to` that is not among `seen` (file names) and returns it. The server
 * writes mail after answering the request that asked for it, so a test polls rather than reads.
 * (End-to-end tests outside this package reach mailparser through here.)
 */
export async function nextOutboxMail(dataDir: string, to: string, seen: ReadonlySet<string> = new Set(), ms = 15_000): Promise<OutboxMail> {
  const dir = join(dataDir, 'outbox');
  const wanted = to.toLowerCase();
  return until(
    `a message to ${to} in ${dir}`,
    async () => {
      if (!existsSync(dir)) return undefined;
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.eml') && !seen.has(f)).sort()) {
        const mail = await read(dir, file);
        if (mail.to.toLowerCase().includes(wanted)) return mail;
      }
      return undefined;
    },
    ms,
    50,
  );
}

/** The names of the messages in the outbox now, to tell later ones from them. */
export function outboxFiles(dataDir: string): Set<string> {
  const dir = join(dataDir, 'outbox');
  return new Set(existsSync(dir) ? readdirSync(dir) : []);
}
