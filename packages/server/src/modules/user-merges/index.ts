/** Merging one account into another, undoable until the source is anonymised. */
export { MERGE_UNDO_DAYS, UserMergesService } from './service.js';
export { userMergesRoutes } from './routes.js';
