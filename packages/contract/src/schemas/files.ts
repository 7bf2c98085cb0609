import { z } from 'zod';
import { Timestamp } from '../wire.js';

export const FileMeta = z.object({
  id: z.string(),
  name: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number().int(),
  sha256: z.string(),
  createdAt: Timestamp,
});
export type FileMeta = z.infer<typeof FileMeta>;

/** Multipart parts of an upload; the file part itself is binary. */
export const FileUpload = z.object({
  file: z.string().meta({ format: 'binary' }),
  sha256: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex digits'),
});

/** What POST /files/fetch downloads. */
export const FetchFileRequest = z.object({
  url: z.string().trim().min(1).max(2048).meta({ description: 'An http: or https: URL on a host of the external-content list' }),
});

export const FileRef = z.object({ fileId: z.string(), mimeType: z.string(), sizeBytes: z.number().int(), sha256: z.string() });
