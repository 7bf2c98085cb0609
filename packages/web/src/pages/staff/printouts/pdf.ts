/** The PDF of a printout as it is printed, served same-origin with the session cookie. */
export function printoutPdfUrl(id: string): string {
  return `/api/v1/printouts/${encodeURIComponent(id)}/pdf`;
}
