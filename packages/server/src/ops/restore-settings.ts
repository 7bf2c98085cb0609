import { settingsTable } from '../config.js';
import { maskDatabaseUrl } from '../db/database-url.js';
import { maskSmtpUrl } from '../mail/mailer.js';

/**
 * The settings of `judge.json` (see config.ts) that make the judge run a program, or read or
 * serve files outside its data directory. A backup is one file anybody could have made or
 * altered (its manifest is no signature), so a restore takes these from it only when the
 * administrator confirms them. Every other setting is a number, a switch, an address or a name
 * of a log level; the tests hold every string setting of config.ts to this list or to that one.
 */
export const COMMAND_SETTINGS: Record<string, string> = {
  'printing.command': 'a shell command the judge runs for every printout',
  languages: 'the language table (its compile and run commands) of the judge and its local runner',
  'web.dir': 'a folder whose files the judge serves to everybody at /',
  'tls.certFile': 'a file the judge reads at start and sends to every client as its certificate',
  'tls.keyFile': 'a file the judge reads at start as its private key',
  database: 'the database server the judge would keep all its data in, instead of the restored file',
  filesDir: 'a directory outside the data directory the judge would keep its stored files in',
  'mail.smtpUrl': 'the mail server every message of the judge would go to, password reset links included',
  'files.fetchAllowLoopback': "lets POST /files/fetch reach the judge's own machine (loopback addresses): meant for tests only",
};

/** String settings that start nothing and name no file. */
export const PLAIN_STRING_SETTINGS = ['host', 'publicUrl', 'logLevel', 'mail.from'];

/** A setting the archive's judge.json holds that is not restored without the administrator's word. */
export interface HeldSetting {
  key: string;
  value: unknown;
  why: string;
}

export interface SettingsDecision {
  /** What to write as the new judge.json: the archive's bytes, or them without `held`; none: nothing. */
  content?: Buffer;
  held: HeldSetting[];
  restored: boolean;
}

type Doc = Record<string, unknown>;
const isDoc = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A key JSON.parse keeps as data but merging settings would treat as an object's prototype. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function ownAt(doc: Doc, path: string[]): { found: boolean; value?: unknown } {
  let cur: unknown = doc;
  for (const k of path) {
    if (!isDoc(cur) || !Object.hasOwn(cur, k)) return { found: false };
    cur = cur[k];
  }
  return { found: true, value: cur };
}

function removeAt(doc: Doc, path: string[]): void {
  const parent = ownAt(doc, path.slice(0, -1)).value;
  if (isDoc(parent)) delete parent[path[path.length - 1]!];
}

/** Prototype keys at any depth, as dotted paths. */
function prototypeKeys(doc: Doc, prefix: string[] = []): string[][] {
  return Object.entries(doc).flatMap(([k, v]) => (PROTOTYPE_KEYS.has(k) ? [[...prefix, k]] : isDoc(v) ? prototypeKeys(v, [...prefix, k]) : []));
}

/** The command settings of a judge.json that differ from this installation's defaults (a default starts nothing new). */
export function heldSettings(config: Buffer): { doc?: Doc; held: HeldSetting[] } {
  let doc: unknown;
  try {
    doc = JSON.parse(config.toString('utf8'));
  } catch {
    doc = undefined;
  }
  if (!isDoc(doc)) return { held: [{ key: 'judge.json', value: config.toString('utf8').slice(0, 200), why: 'the file is not a JSON object, so what it sets cannot be told' }] };
  const defaults = new Map(settingsTable().map((r) => [r.key, r.value]));
  const held: HeldSetting[] = [];
  for (const [key, why] of Object.entries(COMMAND_SETTINGS)) {
    const at = ownAt(doc, key.split('.'));
    // what is held is shown and listed (--json): a database URL without its password
    const value = typeof at.value !== 'string' ? at.value : key === 'database' ? maskDatabaseUrl(at.value) : key === 'mail.smtpUrl' ? maskSmtpUrl(at.value) : at.value;
    if (at.found && JSON.stringify(at.value) !== JSON.stringify(defaults.get(key))) held.push({ key, value, why });
  }
  for (const path of prototypeKeys(doc)) held.push({ key: path.join('.'), value: ownAt(doc, path).value, why: 'not a setting: it would change how the settings are merged' });
  return { doc, held };
}

/**
 * What a restore writes as judge.json: the archive's own bytes when nothing in them runs a
 * program, or when `confirm` says yes to the settings that do; else it without them.
 */
export async function decideSettings(config: Buffer | undefined, confirm: (held: HeldSetting[]) => boolean | Promise<boolean>): Promise<SettingsDecision> {
  if (!config) return { held: [], restored: true };
  const { doc, held } = heldSettings(config);
  if (!held.length) return { content: config, held, restored: true };
  if (await confirm(held)) return { content: config, held, restored: true };
  if (!doc) return { held, restored: false };
  for (const h of held) removeAt(doc, h.key.split('.'));
  return { content: Buffer.from(`${JSON.stringify(doc, null, 2)}\n`), held, restored: false };
}

/** Text with every control or invisible formatting character escaped, for a terminal. */
export function printable(text: unknown): string {
  return String(text).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}

/** A value as JSON, printable. */
export const shown = (value: unknown): string => printable(JSON.stringify(value) ?? String(value));
