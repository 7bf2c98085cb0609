/**
 * Built-in HTTPS: `tls.certFile` and `tls.keyFile` (PEM, the certificate file may hold the chain)
 * make `judge serve` answer HTTPS and WSS itself, so a small school needs no reverse proxy. Both or
 * neither; they are read once at start (a renewed certificate needs a restart).
 */
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { ConfigError, type Config } from './config.js';

export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
}

function read(path: string, setting: string): Buffer {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new ConfigError(`${setting}: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** The certificate and key, checked to form a pair, or undefined when HTTPS is not configured. */
export function loadTls(config: Config): TlsFiles | undefined {
  const { certFile, keyFile } = config.tls;
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) throw new ConfigError(`tls: give both tls.certFile and tls.keyFile (--tls-cert and --tls-key), or neither`);
  const files = { cert: read(certFile, 'tls.certFile'), key: read(keyFile, 'tls.keyFile') };
  try {
    createSecureContext(files);
  } catch (e) {
    // e.g. a key that is not the certificate's, or a file that is not PEM; the message names no key material
    throw new ConfigError(`tls: ${certFile} and ${keyFile} are not a certificate and its private key: ${(e as Error).message}`);
  }
  return files;
}
