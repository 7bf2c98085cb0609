import { z } from 'zod';

/**
 * The JSON property types of the CLICS Contest API, version 2023-06 (Contest_API.md, "JSON property
 * types"), written from the specification's text. Every object schema of this folder is strict: a
 * property outside the schema is an error, as in the strict mode of the specification's own checker.
 */

/** `[a-zA-Z0-9_.-]`, at most 36 characters, not starting with `-` or `.`, not ending with `.`. */
export const ID = z.string().regex(/^(?![-.])[a-zA-Z0-9_.-]{1,36}(?<!\.)$/, 'a CLICS ID');

/** ISO 8601 combined date and time with a time zone: `yyyy-mm-ddThh:mm:ss(.uuu)?[+-]zz(:mm)?` or `Z`. */
export const TIME = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?([+-]\d{2}(:\d{2})?|Z)$/, 'a CLICS TIME');

/** A duration: `(-)?(h)*h:mm:ss(.uuu)?`. */
export const RELTIME = z.string().regex(/^-?\d+:[0-5]\d:[0-5]\d(\.\d{3})?$/, 'a CLICS RELTIME');

/** A file reference; width and height only for images (required then). */
export const FILE = z.strictObject({
  href: z.string(),
  filename: z.string(),
  hash: z.string().nullable().optional(),
  mime: z.string(),
  width: z.number().int().nullable().optional(),
  height: z.number().int().nullable().optional(),
});

export const LOCATION = z.strictObject({ latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180) });

/** A number of seconds that is an integer multiple of 0.001. */
export const Seconds = z
  .number()
  .nonnegative()
  .refine((n) => Math.abs(Math.round(n * 1000) - n * 1000) < 1e-6, 'a multiple of 0.001');

/** The error body of every failure: the status again and a message. */
export const ErrorBody = z.strictObject({ code: z.number().int(), message: z.string() });

export type ClicsFile = z.infer<typeof FILE>;
