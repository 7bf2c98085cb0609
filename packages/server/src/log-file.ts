import { basename, dirname } from 'node:path';
import pino, { type Logger } from 'pino';
import { createStream } from 'rotating-file-stream';
import type { Config } from './config.js';

/** What the server's JSON log never holds in clear. */
export const LOG_REDACTION = { paths: ['*.password', '*.token', '*.authorization', '*.cookie'], censor: '[secret]' };

export interface LogFile {
  log: Logger;
  /** Flushes and closes the file; resolves also when it could not be written. */
  closeLog(): Promise<void>;
}

/**
 * The server's JSON log in `file`, rotated by size: judge.log is renamed judge.log.1 (and the older
 * ones shift up) when it reaches `logs.maxFileBytes`, and only `logs.keepFiles` old files are kept,
 * so a judge that runs for a term cannot fill its disk with logs. `toStdout` also writes each line
 * to standard output (`--log-format json`). A log that cannot be written is said once on stderr,
 * never a crash.
 */
export function openLogFile(config: Config, file: string, toStdout = false): LogFile {
  const stream = createStream(basename(file), {
    path: dirname(file),
    size: `${config.logs.maxFileBytes}B`,
    rotate: config.logs.keepFiles,
    mode: 0o640,
    teeToStdout: toStdout,
  });
  let failed = false;
  stream.on('error', (e: Error) => {
    if (!failed) process.stderr.write(`judge: cannot write the log ${file}: ${e.message}\n`);
    failed = true;
  });
  const closed = new Promise<void>((r) => {
    stream.once('close', () => r());
    stream.once('finish', () => r());
    stream.once('error', () => r());
  });
  const log = pino({ level: config.logLevel, redact: LOG_REDACTION }, stream);
  return { log, closeLog: () => (stream.end(), closed) };
}
