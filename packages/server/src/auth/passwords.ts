import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id; the package's const enum cannot be imported under verbatimModuleSyntax
const ARGON2ID = 2;

export interface PasswordHasherOptions {
  memoryKiB: number;
  iterations: number;
}

/** Argon2id; the cost comes from configuration so a small box can be tuned. */
export class PasswordHasher {
  constructor(private readonly opts: PasswordHasherOptions) {}

  hash(password: string): Promise<string> {
    return hash(password, { algorithm: ARGON2ID, memoryCost: this.opts.memoryKiB, timeCost: this.opts.iterations, parallelism: 1 });
  }

  async verify(stored: string | null, password: string): Promise<boolean> {
    if (!stored) {
      // spend the same time as a real check so a missing account is not told apart by timing
      await this.hash(password);
      return false;
    }
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  }
}
