import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { FileMeta } from '@judge/contract';
import { eq } from 'drizzle-orm';
import type { Actor } from '../../auth/permissions.js';
import { files } from '../../db/schema.js';
import { ApiError, notFound } from '@judge/contract';
import type { Deps } from '../../services.js';
import { iso, newId } from '../../util.js';
import type { IncomingUpload } from '../../http/uploads.js';
import type { BlobStore } from './store.js';
import { ExternalFetch } from './fetch.js';

type FileRow = typeof files.$inferSelect;

/**
 * Decides whether a caller may read a file that some record references (a problem statement, a
 * submission). Areas register one each; a file nobody references is its uploader's alone. A rule
 * reads what it needs with the data layer, so it answers asynchronously.
 */
export type FileReadRule = (actor: Actor, fileId: string) => Promise<boolean>;

export type { IncomingUpload };

const toMeta = (f: FileRow): FileMeta => ({ id: f.id, name: f.name, mimeType: f.mimeType, sizeBytes: f.sizeBytes, sha256: f.sha256, createdAt: f.createdAt });

/** The instance's external-content list (the instance module keeps it). */
export type ExternalHosts = () => Promise<readonly string[]>;

export class FilesService {
  private readonly rules: FileReadRule[] = [];
  private readonly fetcher: ExternalFetch;

  constructor(
    private readonly d: Deps,
    readonly blobs: BlobStore,
    private readonly externalHosts: ExternalHosts = async () => [],
  ) {
    this.fetcher = new ExternalFetch({
      maxBytes: d.config.limits.uploadBytes,
      timeoutMs: d.config.limits.fetchSeconds * 1000,
      allowLoopback: d.config.files.fetchAllowLoopback,
      tempPath: () => blobs.tempPath('fetch'),
    });
  }

  addReadRule(rule: FileReadRule): void {
    this.rules.push(rule);
  }

  /** Stores an upload after recomputing its SHA-256 from the bytes on disk; a mismatch stores nothing. */
  async upload(actor: Actor | null, u: IncomingUpload, opts: { runnerId?: string } = {}): Promise<FileMeta> {
    let kept = false;
    try {
      const { sha256, sizeBytes } = await this.blobs.hashFile(u.tempPath);
      if (sha256 !== u.declaredSha256.toLowerCase()) {
        throw ApiError.of('checksum_mismatch', `The bytes received hash to ${sha256}, not the declared ${u.declaredSha256.toLowerCase()}`, {
          sha256: ['does not match the file'],
        });
      }
      await this.blobs.adopt(u.tempPath, sha256);
      kept = true;
      // a new row of its own: nothing is read first, so a retried transaction writes the same
      const [row] = await this.d.tx.write((q) =>
        q
          .insert(files)
        .values({
          id: newId(),
          sha256,
          sizeBytes,
          name: u.name,
          mimeType: u.mimeType,
          uploadedBy: actor?.userId ?? null,
          uploadedByRunner: opts.runnerId ?? null,
          createdAt: iso(this.d.clock.now()),
        })
        .returning(),
      );
      return toMeta(row!);
    } finally {
      if (!kept) await this.blobs.discard(u.tempPath);
    }
  }

  /**
   * Downloads a file from a host of the external-content list and stores it as the caller's upload
   * (decisions §11; fetch.ts checks the URL, every address and every redirect). The log names the
   * host, never the URL: its query may hold a token.
   */
  async fetch(actor: Actor, url: string): Promise<FileMeta> {
    await this.d.permissions.require(actor, 'problem:import:external');
    const got = await this.fetcher.download(url, await this.externalHosts());
    const meta = await this.upload(actor, { tempPath: got.tempPath, declaredSha256: got.sha256, name: got.name, mimeType: got.mimeType });
    this.d.log.info(
      { userId: actor.userId, host: got.host, ...(got.finalHost !== got.host ? { finalHost: got.finalHost } : {}), redirects: got.redirects, sizeBytes: meta.sizeBytes, sha256: meta.sha256, fileId: meta.id },
      'file fetched',
    );
    return meta;
  }

  /** Stores bytes the server made itself (e.g. a package's samples) as a file of `actor`. */
  async store(actor: Actor, f: { name: string; mimeType: string; bytes: Uint8Array }): Promise<FileMeta> {
    const tempPath = this.blobs.tempPath('made');
    await writeFile(tempPath, f.bytes, { mode: 0o600 });
    const sha256 = createHash('sha256').update(f.bytes).digest('hex');
    return this.upload(actor, { tempPath, declaredSha256: sha256, name: f.name, mimeType: f.mimeType });
  }

  /** The file record, if the caller may read it; otherwise 404, like a file that does not exist. */
  async readable(actor: Actor, id: string): Promise<FileRow> {
    const f = await this.find(id);
    if (!f) throw notFound('file');
    if (f.uploadedBy === actor.userId || (await this.d.permissions.isAdministrator(actor.userId))) return f;
    // in order, stopping at the first that lets the caller in, as before
    for (const rule of this.rules) if (await rule(actor, id)) return f;
    throw notFound('file');
  }

  /** A stored file by id, for readers that decided access themselves (runners). */
  async find(id: string): Promise<FileRow | undefined> {
    return (await this.d.tx.read((q) => q.select().from(files).where(eq(files.id, id)).limit(1)))[0];
  }

  async meta(actor: Actor, id: string): Promise<FileMeta> {
    return toMeta(await this.readable(actor, id));
  }
}
