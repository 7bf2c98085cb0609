/**
 * Why a job given to the bounded pool (pool.ts) did not finish: it ran out of its time or its
 * memory, its code threw, its thread died, or the queue was full. Callers turn every one of these
 * into a refusal of the request that asked for the work (never a 500, never a stopped server).
 */
export type OffloopReason = 'timeout' | 'memory' | 'failed' | 'crashed' | 'busy';

export class OffloopFailure extends Error {
  constructor(
    readonly reason: OffloopReason,
    message: string,
  ) {
    super(message);
    this.name = 'OffloopFailure';
  }
}

/** The reason as a sentence a user can act on. */
export function failureText(f: OffloopFailure): string {
  switch (f.reason) {
    case 'timeout':
      return `it took longer than allowed (${f.message})`;
    case 'memory':
      return 'it needed more memory than allowed';
    case 'busy':
      return 'the server is busy with other such work; try again shortly';
    default:
      return f.message;
  }
}
