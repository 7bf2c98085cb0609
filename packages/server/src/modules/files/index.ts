/** Uploaded files, stored by content hash, and who may read them. */
export { FilesService, type ExternalHosts, type IncomingUpload } from './service.js';
export { filesRoutes } from './routes.js';
export { BlobStore, filesLayout } from './store.js';
