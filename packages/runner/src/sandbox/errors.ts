/** Thrown when the sandbox itself cannot work (not for a program that fails). */
export class SandboxError extends Error {
  override name = 'SandboxError';
}
