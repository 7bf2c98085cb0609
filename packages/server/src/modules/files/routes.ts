import { ops } from '@judge/contract';
import type { Api } from '../../http/api.js';
import { sendBlob } from '../../http/downloads.js';
import { multipartUpload, uploadOf } from '../../http/uploads.js';
import type { FilesService } from './service.js';

export function filesRoutes(api: Api, files: FilesService, uploadBytes: number): void {
  api.bind(
    ops.uploadFile,
    async ({ actor, form, ctx }) => {
      const meta = await files.upload(actor, uploadOf(form));
      ctx.set('Location', `/api/v1/files/${meta.id}/meta`);
      return meta;
    },
    [multipartUpload(files.blobs.incomingDir, uploadBytes)],
  );
  api.bind(ops.fetchFile, async ({ actor, body, ctx }) => {
    const meta = await files.fetch(actor, body.url);
    ctx.set('Location', `/api/v1/files/${meta.id}/meta`);
    return meta;
  });
  api.bind(ops.downloadFile, async ({ actor, params, ctx }) => {
    sendBlob(ctx, files.blobs, await files.readable(actor, params.id));
  });
  api.bind(ops.getFileMeta, ({ actor, params }) => files.meta(actor, params.id));
}
