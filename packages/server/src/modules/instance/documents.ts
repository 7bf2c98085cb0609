import { ApiError, type InstanceDocument } from '@judge/contract';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { readFile } from 'node:fs/promises';
import type { Actor } from '../../auth/permissions.js';
import { files, instanceDocuments } from '../../db/schema.js';
import type { Q } from '../../db/storage.js';
import type { Outbox } from '../../db/transactor.js';
import type { Deps } from '../../services.js';
import { iso, newId } from '../../util.js';
import { documentType, headOf, usableFile, type Bytes, type FileRow } from './instance-files.js';

type Revision = InstanceDocument & { id: string; withdrawn: boolean };
export type PublishedStatement = { fileId: string; language?: string | undefined; title?: string | undefined };
export type StoreBytes = (actor: Actor, f: { name: string; mimeType: string; bytes: Uint8Array }) => Promise<{ id: string; sha256: string; sizeBytes: number }>;

/** Each kind's name, the title of a revision published without one. */
const KIND_TITLE: Record<string, string> = {
  terms: 'Terms of use',
  privacy: 'Privacy notice',
  rules: 'Rules',
  welcome: 'Welcome',
  home: 'Home',
  cookies: 'Cookies',
  accessibility: 'Accessibility',
};

/** The texts the judge ships to start from (packages/server/templates/documents/KIND.LANGUAGE.md). */
const TEMPLATES: { kind: string; language: string; title: string }[] = [
  { kind: 'terms', language: 'en', title: 'Terms of use (template)' },
  { kind: 'terms', language: 'de', title: 'Nutzungsbedingungen (Vorlage)' },
  { kind: 'privacy', language: 'en', title: 'Privacy notice (template)' },
  { kind: 'privacy', language: 'de', title: 'Datenschutzhinweise (Vorlage)' },
];
const templatePath = (kind: string, language: string) => new URL(`../../../templates/documents/${kind}.${language}.md`, import.meta.url);

/**
 * The instance's documents (terms, privacy, rules...): revisions per kind and language, each in
 * force from its validFrom until a newer one of the same kind and language is, or until withdrawn.
 * Every page load reads the ones in force (GET /instance), so the revisions are kept in memory,
 * forgotten with the other settings (`forget`).
 */
export class InstanceDocuments {
  private revisions: Revision[] | undefined;
  private generation = 0;
  private templateFiles = new Map<string, InstanceDocument>();

  constructor(
    private readonly d: Deps,
    private readonly bytes: Bytes,
    private readonly storeBytes: StoreBytes,
    private readonly announce: (q: Q, out: Outbox) => Promise<void>,
  ) {}

  forget(): void {
    this.generation++;
    this.revisions = undefined;
  }

  /** Every revision not withdrawn (from memory outside a transaction). */
  private async all(q?: Q): Promise<Revision[]> {
    if (!q && this.revisions) return this.revisions;
    const generation = this.generation;
    const rows = await this.d.tx.read((r) => readRevisions(r), q);
    const live = rows.filter((r) => !r.withdrawn);
    if (!q && generation === this.generation) this.revisions = live;
    return live;
  }

  /** Per kind and language, the newest revision whose validFrom has passed. */
  async inForce(q?: Q): Promise<InstanceDocument[]> {
    const now = iso(this.d.clock.now());
    const best = new Map<string, Revision>();
    for (const r of await this.all(q)) {
      if (r.validFrom > now) continue;
      const key = `${r.kind}\u0000${r.language}`;
      const held = best.get(key);
      if (!held || r.validFrom > held.validFrom) best.set(key, r);
    }
    return [...best.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.language.localeCompare(b.language)).map(strip);
  }

  /** Whether a file is one of the documents' (any revision, withdrawn or not, or a template): everybody may read it. */
  async shows(fileId: string): Promise<boolean> {
    if ([...this.templateFiles.values()].some((t) => t.fileId === fileId)) return true;
    const [row] = await this.d.tx.read((q) => q.select({ id: instanceDocuments.id }).from(instanceDocuments).where(eq(instanceDocuments.fileId, fileId)).limit(1));
    return row !== undefined;
  }

  /** Every revision of a kind, newest first, withdrawn ones too, then the judge's templates for it. */
  async history(actor: Actor, kind: string): Promise<InstanceDocument[]> {
    await this.d.permissions.require(actor, 'instance:update');
    const rows = await this.d.tx.read((q) => readRevisions(q, kind));
    return [...rows.map(strip), ...(await this.templates(actor, kind))];
  }

  /** The templates of a kind, stored as files on first need (a file needs an id to be downloaded and published). */
  private async templates(actor: Actor, kind: string): Promise<InstanceDocument[]> {
    const out: InstanceDocument[] = [];
    for (const t of TEMPLATES.filter((x) => x.kind === kind)) {
      const key = `${t.kind}.${t.language}`;
      let doc = this.templateFiles.get(key);
      if (!doc) {
        const bytes = await readFile(templatePath(t.kind, t.language));
        const f = await this.storeBytes(actor, { name: `${key}.md`, mimeType: 'text/markdown', bytes });
        doc = { kind: t.kind, language: t.language, title: t.title, validFrom: iso(this.d.clock.now()), isTemplate: true, fileId: f.id, sha256: f.sha256, sizeBytes: f.sizeBytes };
        this.templateFiles.set(key, doc);
      }
      out.push(doc);
    }
    return out;
  }

  /** A revision per statement; a second statement in the same language is refused, nothing stored. */
  async publish(actor: Actor, kind: string, statements: PublishedStatement[], validFrom: string | undefined): Promise<void> {
    await this.d.permissions.require(actor, 'instance:update');
    const languages = statements.map((s) => (s.language ?? 'en').toLowerCase());
    const repeated = languages.findIndex((l, i) => languages.indexOf(l) !== i);
    if (repeated >= 0) throw ApiError.of('validation_failed', 'One statement per language', { [`statements.${repeated}.language`]: ['one statement per language'] });
    const shown = new Set([...this.templateFiles.values()].map((t) => t.fileId));
    await this.d.tx.write(async (q, out) => {
      const now = iso(this.d.clock.now());
      for (const [i, s] of statements.entries()) {
        const f = await usableFile(this.d, q, actor, s.fileId, `statements.${i}.fileId`, shown);
        if (!documentType(f.name, await headOf(this.bytes, f, 8))) {
          throw ApiError.of('validation_failed', 'A document is a Markdown (.md), text (.txt), HTML (.html) or PDF file', { [`statements.${i}.fileId`]: ['not Markdown, text, HTML or PDF'] });
        }
        const title = s.title ?? KIND_TITLE[kind] ?? kind;
        await q.insert(instanceDocuments).values({ id: newId(), kind, language: languages[i]!, title, validFrom: validFrom ?? now, fileId: f.id, createdAt: now, createdBy: actor.userId });
      }
      await this.announce(q, out);
    });
    this.d.log.info({ kind, languages, by: actor.userId }, 'instance documents published');
  }

  /** Every revision of the kind leaves force; the history keeps them. */
  async withdraw(actor: Actor, kind: string): Promise<void> {
    await this.d.permissions.require(actor, 'instance:update');
    await this.d.tx.write(async (q, out) => {
      await q
        .update(instanceDocuments)
        .set({ withdrawnAt: iso(this.d.clock.now()) })
        .where(and(eq(instanceDocuments.kind, kind), isNull(instanceDocuments.withdrawnAt)));
      await this.announce(q, out);
    });
    this.d.log.info({ kind, by: actor.userId }, 'instance documents withdrawn');
  }

  /** The type a document file is served with (GET /instance/files/{id}). */
  async servedType(f: FileRow): Promise<string> {
    return documentType(f.name, await headOf(this.bytes, f, 8)) ?? 'application/octet-stream';
  }
}

async function readRevisions(q: Q, kind?: string): Promise<Revision[]> {
  const rows = await q
    .select({ d: instanceDocuments, sha256: files.sha256, sizeBytes: files.sizeBytes })
    .from(instanceDocuments)
    .innerJoin(files, eq(files.id, instanceDocuments.fileId))
    .where(kind ? eq(instanceDocuments.kind, kind) : undefined)
    .orderBy(desc(instanceDocuments.validFrom), desc(instanceDocuments.createdAt));
  return rows.map(({ d, sha256, sizeBytes }) => ({
    id: d.id,
    kind: d.kind,
    language: d.language,
    title: d.title,
    validFrom: d.validFrom,
    isTemplate: false,
    fileId: d.fileId,
    sha256,
    sizeBytes,
    withdrawn: d.withdrawnAt !== null,
  }));
}

const strip = ({ id: _id, withdrawn: _w, ...doc }: Revision): InstanceDocument => doc;
