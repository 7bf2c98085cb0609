import { spawn } from 'node:child_process';

/** What a printing command did. */
export interface PrintResult {
  exitCode: number;
  output: string;
}

const OUTPUT_MAX = 4096;
const TIMEOUT_MS = 120_000;

/**
 * Runs the configured printing command (`lp -d NAME`, as DOMjudge's print_command) through the
 * shell with the PDF on its standard input, keeping its exit status and the first 4 KiB of what
 * it said. A command that hangs is killed after two minutes (exit code -1).
 */
export function runPrintCommand(command: string, pdf: Buffer): Promise<PrintResult> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      if (output.length < OUTPUT_MAX) output = (output + chunk.toString('utf8')).slice(0, OUTPUT_MAX);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    timer.unref();
    // a command that does not read its input must not fail the write with EPIPE
    child.stdin.on('error', () => {});
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ exitCode: -1, output: (output + e.message).slice(0, OUTPUT_MAX) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? -1, output });
    });
    child.stdin.end(pdf);
  });
}
