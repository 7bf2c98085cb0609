/**
 * Which files a statement may show as images: files of its own directory in the package (no
 * `..`, no absolute path, no subdirectory escaping it), of an image type, of a bounded size.
 */
import { posix } from 'node:path';

/** Larger images are left out of the statement (the figure keeps its caption). */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
};
/** The extensions tried, in LaTeX's spirit, when \includegraphics names a file without one. */
const TRIED = ['png', 'jpg', 'jpeg', 'svg', 'gif'];

export const imageMime = (name: string): string | undefined => MIME[name.slice(name.lastIndexOf('.') + 1).toLowerCase()];

/**
 * The package path of the image `ref` names, from the statement's directory `dir`, when it is one
 * of the files offered (`exists`); undefined for anything else, which the statement then goes without.
 */
export function resolveImage(dir: string, ref: string, exists: (path: string) => boolean): string | undefined {
  const clean = ref.trim();
  if (!clean || clean.startsWith('/') || clean.includes('\\') || clean.includes('\0') || /^[a-z][a-z0-9+.-]*:/i.test(clean)) return undefined;
  const path = posix.normalize(posix.join(dir, clean));
  if (!path.startsWith(`${dir}/`)) return undefined;
  const candidates = imageMime(path) ? [path] : TRIED.map((ext) => `${path}.${ext}`);
  return candidates.find((c) => imageMime(c) && exists(c));
}
