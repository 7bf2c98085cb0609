/**
 * The job that converts a LaTeX or HTML statement, on a thread of the bounded pool
 * (offloop/pool.ts): the converter's time, memory and stack are the thread's, never the server's.
 * Images cannot be given their URLs here (they are stored after every statement passed), so each
 * image the statement shows is written as a placeholder the caller replaces (convert.ts).
 */
import { prepareHtml } from './html.js';
import { MAX_IMAGE_BYTES, resolveImage } from './images.js';
import { prepareLatex, type PreparedStatement } from './latex.js';

export interface ConvertInput {
  source: 'tex' | 'html';
  text: string;
  /** The statement's directory in the package ('' for a statement sent alone: no files beside it). */
  dir: string;
  /** The directory's .tex files by name, for \input. */
  siblings: Map<string, string>;
  /** The package's image files (path → size) the statement may draw on. */
  imageSizes: Map<string, number>;
  /** Images other statements of the version already show (stored once). */
  included: string[];
  /** Bytes of images the version may still store; an image beyond is left out. */
  imageBytesLeft: number;
  /** Makes the placeholders unguessable to the statement's author. */
  nonce: string;
}

export interface ConvertOutput {
  html: string;
  /** The images the HTML shows, in placeholder order. */
  shown: string[];
  /** Those of them no earlier statement showed: to be stored. */
  fresh: string[];
  warnings: string[];
}

/** A converted statement larger than this is refused: its handling and storing would weigh on the server. */
export const MAX_HTML_CHARS = 4 * 1024 * 1024;

export const imagePlaceholder = (nonce: string, index: number): string => `/__statement-image/${nonce}/${index}`;

export default function convertJob(input: ConvertInput): ConvertOutput {
  const image = (ref: string) => (input.dir ? resolveImage(input.dir, ref, (p) => (input.imageSizes.get(p) ?? Infinity) <= MAX_IMAGE_BYTES) : undefined);
  const prepared: PreparedStatement & { warnings?: string[] } =
    input.source === 'html' ? prepareHtml({ text: input.text, image }) : prepareLatex({ text: input.text, sibling: (name) => input.siblings.get(name), image });
  let left = input.imageBytesLeft;
  const fresh: string[] = [];
  const shown = prepared.images.filter((p) => {
    if (input.included.includes(p)) return true;
    const size = input.imageSizes.get(p) ?? Infinity;
    if (size > left) return false;
    left -= size;
    fresh.push(p);
    return true;
  });
  const html = prepared.render((p) => (shown.includes(p) ? imagePlaceholder(input.nonce, shown.indexOf(p)) : undefined));
  if (html.length > MAX_HTML_CHARS) throw new Error(`the converted statement is longer than ${MAX_HTML_CHARS} characters`);
  return { html, shown, fresh, warnings: prepared.warnings ?? [] };
}
