import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { FetchFileRequest, FileMeta, FileUpload } from '../schemas/files.js';
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

export const fetchFile = defineOperation({
  id: 'fetchFile',
  method: 'POST',
  path: '/files/fetch',
  tag: 'Files',
  summary: "Download a file from a host of the instance's external-content list and store it as an upload",
  description:
    'Only http: and https: URLs whose host is on the external-content list (GET /instance/external-content) are fetched, and never from a loopback, private, ' +
    'link-local, multicast or otherwise reserved address: every address the name resolves to is checked, the connection goes to a checked one, and each redirect ' +
    '(at most 5) is checked the same way. The upload size limit holds, and the whole download has a time limit (the setting limits.fetchSeconds). ' +
    'The file is named by the Content-Disposition of the answer, else the last segment of the URL path, else "download"; its type is the answer\'s Content-Type. ' +
    'fetch.scheme: not http(s); fetch.host.notAllowed: a host not on the list; fetch.address.forbidden: an address the server never contacts; ' +
    'fetch.tooLarge: over the upload limit; fetch.timeout: over the time limit; fetch.failed: the name did not resolve, the connection failed, or the answer was not 2xx; ' +
    'fetch.redirects: more than 5 redirects. Nothing is stored after a refusal.',
  auth: 'user',
  body: FetchFileRequest,
  response: FileMeta,
  status: 201,
  errors: [
    'forbidden',
    'validation_failed',
    'fetch.scheme',
    'fetch.host.notAllowed',
    'fetch.address.forbidden',
    'fetch.tooLarge',
    'fetch.timeout',
    'fetch.failed',
    'fetch.redirects',
  ],
  // the catalogue's key for exactly this ("Fetch files from external hosts"), as the peer checks it
  permission: 'problem:import:external',
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
