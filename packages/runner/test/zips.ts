// The runner's tests build packages the way the server's do: one set of zip helpers for both.
export { zipOf, renameEntry, declareUncompressedSize, type ZipContent } from '../../server/test/zips.js';
