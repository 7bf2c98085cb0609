import type { FileMeta } from '@judge/contract';
import { sha256Hex } from './client.js';
import { ops } from './op-table.js';
import { ApiProblem, Unreachable } from './problem.js';

/** The part of XMLHttpRequest used here (the SDK builds without the DOM's types). */
interface Xhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  upload: { onprogress: ((e: { loaded: number }) => void) | null };
  onerror: (() => void) | null;
  onload: (() => void) | null;
  status: number;
  statusText: string;
  responseText: string;
  getResponseHeader(name: string): string | null;
  send(body: FormData): void;
}

/**
 * Uploads bytes as `ops.uploadFile` does, from a page of the judge's own origin (the session
 * cookie goes along), reporting the bytes sent as they go: fetch reports no upload progress, so
 * this one request goes by XMLHttpRequest.
 */
export async function uploadWithProgress(
  baseUrl: string,
  name: string,
  bytes: Uint8Array,
  mimeType: string,
  onProgress: (sent: number, total: number) => void,
): Promise<FileMeta> {
  const form = new FormData();
  form.set('sha256', await sha256Hex(bytes));
  form.set('file', new Blob([new Uint8Array(bytes)], { type: mimeType }), name);
  const url = `${baseUrl.replace(/\/+$/, '')}/api/v1${ops.uploadFile.path}`;
  const Request = (globalThis as { XMLHttpRequest?: new () => Xhr }).XMLHttpRequest;
  if (!Request) throw new Error('uploadWithProgress runs in a browser');
  return new Promise<FileMeta>((resolve, reject) => {
    const xhr = new Request();
    xhr.open(ops.uploadFile.method, url);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => onProgress(Math.min(e.loaded, bytes.length), bytes.length);
    xhr.onerror = () => reject(new Unreachable(baseUrl, new Error('the upload did not reach the server')));
    xhr.onload = () => {
      let doc: Record<string, unknown> = {};
      try {
        doc = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        doc = { detail: xhr.statusText };
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(bytes.length, bytes.length);
        resolve(doc as unknown as FileMeta);
      } else {
        const retry = xhr.getResponseHeader('retry-after');
        reject(new ApiProblem(xhr.status, doc, retry ? Number(retry) : undefined));
      }
    };
    xhr.send(form);
  });
}
