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

export const FileRef = z.object({ fileId: z.string(), mimeType: z.string(), sizeBytes: z.number().int(), sha256: z.string() });
