/** A package the judge cannot take: the message names the file and the fault, for authors to read. */
export class PackageError extends Error {
  override readonly name = 'PackageError';
}
