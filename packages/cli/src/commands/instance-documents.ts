import { DocumentKind, LanguageTag, ops, type FileMeta, type InstanceDocument } from '@judge/contract';
import { Argument, Option, type Command } from 'commander';
import { closeSync, openSync, writeSync } from 'node:fs';
import { basename } from 'node:path';
import { api } from '../client.js';
import { CliError } from '../errors.js';
import { emit, table, when, type JsonOption } from '../output.js';
import { sub } from './common.js';
import { instant, language, size, uploadLocal } from './instance-shared.js';

/**
 * `instance documents`: the terms, privacy notice, rules and other texts of the instance, a file per
 * language, published as revisions that each come into force at their validFrom; the history keeps
 * every revision, and the judge ships templates to start from.
 */
const KINDS = DocumentKind.options;
const kindArgument = () => new Argument('<kind>', 'the kind of document').choices(KINDS);

/** `terms.md:de` names its language; else `terms.de.md` does (two letters, a region after a dash); else English. */
function statementOf(spec: string): { path: string; language: string } {
  const suffix = /^(.+):([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)$/.exec(spec);
  if (suffix) return { path: suffix[1]!, language: suffix[2]! };
  const infix = /\.([a-z]{2}(?:-[A-Za-z0-9]{2,8})?)\.[A-Za-z0-9]+$/.exec(basename(spec));
  return { path: spec, language: infix && LanguageTag.safeParse(infix[1]).success ? infix[1]! : 'en' };
}

type Listed = InstanceDocument & { inForce: boolean };

const same = (a: InstanceDocument, b: InstanceDocument) => a.fileId === b.fileId && a.kind === b.kind && a.language === b.language && a.validFrom === b.validFrom;
const stateOf = (d: Listed) => (d.isTemplate ? 'template' : d.inForce ? 'in force' : 'not in force');

function describeHistory(kind: string, list: Listed[]): string {
  const revisions = list.filter((d) => !d.isTemplate);
  const head = revisions.length ? '' : `No ${kind} published yet.${list.length ? ' Templates to start from (judgectl instance documents template):' : ''}\n`;
  if (!list.length) return head.trim();
  return `${head}${table(
    ['state', 'language', 'title', 'valid from', 'size', 'file'],
    list.map((d) => [stateOf(d), d.language, d.title, d.isTemplate ? '' : when(d.validFrom), size(d.sizeBytes), d.fileId]),
  )}`;
}

/** Writes a new file (never over one that exists). */
function writeNew(path: string, bytes: Uint8Array): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(code === 'EEXIST' ? `${path} exists: not writing over it (give another --out)` : `cannot write ${path}: ${(e as Error).message}`);
  }
  try {
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

type PublishOptions = JsonOption & { title?: string; validFrom?: string };

export function documentsCommands(instance: Command): void {
  const documents = instance
    .command('documents')
    .description(`The instance's documents (${KINDS.join(', ')}): a file per language, published as revisions that each come into force at a date, with a history`);
  sub(documents, 'list', 'List every revision of one kind, newest first (which is in force), then the templates the judge ships for it')
    .addArgument(kindArgument())
    .action(async (kind: (typeof KINDS)[number], o: JsonOption) => {
      const client = await api();
      const [history, settings] = await Promise.all([client.call(ops.listInstanceDocuments, { params: { kind } }), client.call(ops.getInstance)]);
      const list = history.map((d): Listed => ({ ...d, inForce: !d.isTemplate && settings.documents.some((f) => same(f, d)) }));
      emit(o, list, () => describeHistory(kind, list));
    });
  sub(
    documents,
    'publish',
    'Publish a revision of one kind: each file (Markdown, text, HTML or PDF) for its language, taken from a :LANG suffix (terms.md:de) or the file name (terms.de.md), else en. ' +
      'It supersedes the same kind and language from --valid-from on (default now)',
  )
    .addArgument(kindArgument())
    .addArgument(new Argument('<files...>', 'FILE or FILE:LANG, one per language'))
    .option('--title <text>', "the title every file of this revision is shown with (default: the kind's name)")
    .addOption(new Option('--valid-from <instant>', 'when it comes into force, e.g. 2026-09-01T00:00:00Z (without an offset: UTC); until then the one before stays').argParser(instant))
    .action(async (kind: (typeof KINDS)[number], specs: string[], o: PublishOptions) => {
      const statements = specs.map(statementOf);
      for (const s of statements) language(s.language);
      const twice = statements.find((s, i) => statements.findIndex((x) => x.language === s.language) !== i);
      if (twice) throw new CliError(`two files for the language ${twice.language}: one file per language (name it with FILE:LANG)`);
      const client = await api();
      const uploaded: { path: string; language: string; file: FileMeta }[] = [];
      for (const s of statements) uploaded.push({ ...s, file: await uploadLocal(client, s.path) });
      const body = {
        statements: uploaded.map((u) => ({ fileId: u.file.id, language: u.language, ...(o.title ? { title: o.title } : {}) })),
        ...(o.validFrom ? { validFrom: o.validFrom } : {}),
      };
      const s = await client.call(ops.publishInstanceDocuments, { params: { kind }, body });
      emit(o, s, () =>
        [
          `Published ${kind}, in force ${o.validFrom ? `from ${when(o.validFrom)}` : 'now'}:`,
          ...uploaded.map((u) => `  ${u.language}: ${u.file.name} (${size(u.file.sizeBytes)})`),
        ].join('\n'),
      );
    });
  sub(documents, 'withdraw', 'Withdraw every revision of one kind: none is in force any more (the history keeps them)')
    .addArgument(kindArgument())
    .action(async (kind: (typeof KINDS)[number], o: JsonOption) => {
      const s = await (await api()).call(ops.withdrawInstanceDocuments, { params: { kind } });
      emit(o, s, () => `Withdrew ${kind}: no ${kind} document is in force now.`);
    });
  sub(documents, 'template', "Download the judge's template of one kind to start from (standard output, or --out FILE); edit it, then publish it")
    .addArgument(kindArgument())
    .addOption(new Option('--language <tag>', 'the language of the template').default('en').argParser(language))
    .option('--out <file>', 'write it to this new file instead of standard output')
    .action(async (kind: (typeof KINDS)[number], o: JsonOption & { language: string; out?: string }) => {
      const client = await api();
      const templates = (await client.call(ops.listInstanceDocuments, { params: { kind } })).filter((d) => d.isTemplate);
      const t = templates.find((d) => d.language === o.language);
      if (!t) {
        const have = templates.map((d) => d.language).join(', ');
        throw new CliError(`no ${kind} template in ${o.language}${have ? ` (there is one in ${have})` : ` (the judge ships none for ${kind}: write your own)`}`);
      }
      const bytes = new Uint8Array(await client.call(ops.downloadFile, { params: { id: t.fileId } }));
      if (o.out) writeNew(o.out, bytes);
      const text = Buffer.from(bytes).toString('utf8');
      const wrote = { ...t, ...(o.out ? { out: o.out } : { text }) };
      if (o.out) emit(o, wrote, () => `Wrote ${t.title} to ${o.out}: edit it, then judgectl instance documents publish ${kind} ${o.out}:${t.language}`);
      else emit(o, wrote, () => text.replace(/\n$/, ''));
    });
}
