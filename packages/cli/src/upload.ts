import type { FileMeta } from '@judge/contract';
import { problemOf, Unreachable, type JudgeClient } from '@judge/sdk';
import cliProgress from 'cli-progress';
import { createHash, randomBytes } from 'node:crypto';

/** Uploads smaller than this go up without a progress bar. */
const PROGRESS_FROM_BYTES = 1024 * 1024;
const CHUNK_BYTES = 256 * 1024;

/**
 * Uploads bytes with their SHA-256. On a terminal, a big upload shows a progress bar on standard
 * error: the multipart body is then streamed by hand, counting the bytes handed to the socket
 * (FormData gives no progress); otherwise the SDK's upload does it.
 */
export async function upload(client: JudgeClient, name: string, bytes: Uint8Array, mimeType: string, label = name): Promise<FileMeta> {
  if (!process.stderr.isTTY || bytes.length < PROGRESS_FROM_BYTES || !client.accessToken) return client.upload(name, bytes, mimeType);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const boundary = `----judgectl${randomBytes(12).toString('hex')}`;
  const quoted = name.replace(/["\r\n\\]/g, '_');
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="sha256"\r\n\r\n${sha256}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted}"\r\nContent-Type: ${mimeType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const parts = [head, bytes, tail];
  const total = head.length + bytes.length + tail.length;

  const bar = new cliProgress.SingleBar({
    format: `${label} [{bar}] {percentage}% | {sent}/{size} MiB | ETA {eta_formatted}`,
    hideCursor: true,
    stream: process.stderr,
  });
  const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
  bar.start(bytes.length, 0, { sent: mib(0), size: mib(bytes.length) });
  let part = 0;
  let offset = 0;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      while (part < parts.length && offset >= parts[part]!.length) {
        part++;
        offset = 0;
      }
      if (part >= parts.length) {
        controller.close();
        return;
      }
      const chunk = parts[part]!.subarray(offset, offset + CHUNK_BYTES);
      offset += chunk.length;
      if (part === 1) {
        sent += chunk.length;
        bar.update(sent, { sent: mib(sent) });
      }
      controller.enqueue(new Uint8Array(chunk));
    },
  });
  let res: Response;
  try {
    res = await fetch(`${client.baseUrl}/api/v1/files`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${client.accessToken}`,
        accept: 'application/json',
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(total),
      },
      body,
      duplex: 'half',
    } as RequestInit);
  } catch (e) {
    bar.stop();
    throw new Unreachable(client.baseUrl, (e as { cause?: unknown }).cause ?? e);
  }
  bar.stop();
  if (!res.ok) throw await problemOf(res);
  return (await res.json()) as FileMeta;
}
