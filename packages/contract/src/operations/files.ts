import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { FileMeta, FileUpload } from '../schemas/files.js';
import { FileUploadForm } from '../schemas/forms.js';
import { Uuid } from '../wire.js';

const IdParam = z.object({ id: Uuid });

export const uploadFile = defineOperation({
  id: 'uploadFile',
  method: 'POST',
  path: '/files',
  tag: 'Files',
  summary: 'Upload a file; the declared SHA-256 is recomputed and must match',
  auth: 'user',
  body: FileUpload,
  multipart: true,
  form: FileUploadForm,
  response: FileMeta,
  status: 201,
  errors: ['file.required', 'checksum_mismatch', 'payload_too_large', 'unsupported_media_type', 'validation_failed', 'request.malformed'],
});

export const downloadFile = defineOperation({
  id: 'downloadFile',
  method: 'GET',
  path: '/files/{id}',
  tag: 'Files',
  summary: 'The file content, with ETag, If-None-Match (304) and Range (206)',
  auth: 'user',
  params: IdParam,
  response: 'binary',
  status: 200,
  errors: ['not_found'],
});

export const getFileMeta = defineOperation({
  id: 'getFileMeta',
  method: 'GET',
  path: '/files/{id}/meta',
  tag: 'Files',
  summary: 'The file record',
  auth: 'user',
  params: IdParam,
  response: FileMeta,
  status: 200,
  errors: ['not_found'],
});
