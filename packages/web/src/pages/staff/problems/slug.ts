/**
 * A problem slug from a package's file name, as `judgectl problems import` makes one from its
 * path: the name without .zip, with anything but letters, digits, dash and underscore made a dash.
 */
export function slugOfFileName(fileName: string): string {
  return fileName
    .replace(/\.zip$/i, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64);
}
