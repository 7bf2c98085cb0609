import type { FileMeta } from '@judge/contract';
import { ApiProblem, Unreachable, ops, sha256Hex } from '@judge/sdk/browser';
import { api } from '../../../api/client';

export interface UploadProgress {
  /** Bytes of the request body sent so far. */
  sent: number;
  /** Bytes of the request body in all (the file with its form parts around it). */
  total: number;
}

/** The problem document of a refused upload, read the way the SDK reads one. */
function refusal(xhr: XMLHttpRequest): ApiProblem {
  let doc: Record<string, unknown> = { detail: xhr.statusText };
  try {
    doc = JSON.parse(xhr.responseText) as Record<string, unknown>;
  } catch {
    // not JSON (a proxy's page): the status line says what there is to say
  }
  const retry = xhr.getResponseHeader('retry-after');
  return new ApiProblem(xhr.status, doc, retry ? Number(retry) : undefined);
}

/**
 * Uploads a file as `ops.uploadFile` does (POST /files, a multipart form of `sha256` and `file`),
 * but with XMLHttpRequest, whose upload.onprogress tells how far the bytes went; fetch tells
 * nothing until the answer. Same origin: the browser sends the session cookie and Origin itself,
 * exactly as for the SDK's fetch, so the server checks it as any other call.
 */
export async function uploadWithProgress(file: File, onProgress: (p: UploadProgress) => void, signal?: AbortSignal): Promise<FileMeta> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const form = new FormData();
  form.set('sha256', await sha256Hex(bytes));
  form.set('file', new Blob([bytes], { type: file.type || 'application/octet-stream' }), file.name);
  return new Promise<FileMeta>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(ops.uploadFile.method, `${api.baseUrl}/api/v1${ops.uploadFile.path}`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => onProgress({ sent: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.onload = () => {
      if (xhr.status !== ops.uploadFile.status) return reject(refusal(xhr));
      try {
        resolve(JSON.parse(xhr.responseText) as FileMeta);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    };
    xhr.onerror = () => reject(new Unreachable(api.baseUrl, new Error('the upload did not reach the judge')));
    xhr.onabort = () => reject(new DOMException('the upload was cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
