/** Printouts: requests, the staff's queue, the PDF and the printing command. */
export { PrintoutsService } from './service.js';
export { printoutsRoutes } from './routes.js';
export { printoutPdfDir, pruneDisposed } from './pdf-store.js';
