/**
 * Hands the browser a text made on the page as a file to save, without a round trip to the server.
 * The object URL is let go a second later: the download has its own copy once started.
 */
export function saveText(text: string, file: string, type = 'text/plain;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = file;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
