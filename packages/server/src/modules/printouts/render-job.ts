/** The job that makes a printout's PDF, on a thread of the bounded pool (offloop/pool.ts). */
import { renderPrintout, type PrintoutPage } from './pdf.js';

export default async function renderJob(page: PrintoutPage): Promise<Uint8Array> {
  return new Uint8Array(await renderPrintout(page));
}
