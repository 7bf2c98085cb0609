import { ops, type ClaimedJob, type FileMeta, type Operation, type OperationInput, type OperationOutput } from '@judge/contract';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import nacl from 'tweetnacl';
import { ApiClient, type CallInput } from './client.js';
import { ApiProblem } from './problem.js';

// ---------------------------------------------------------------- keys

/** An Ed25519 key pair as the runner protocol uses it: base64 of the raw 32-byte public and 64-byte secret key. */
export interface RunnerKey {
  publicKey: string;
  secretKey: string;
}

/** A new Ed25519 key pair. */
export function generateRunnerKey(): RunnerKey {
  const pair = nacl.sign.keyPair();
  return { publicKey: Buffer.from(pair.publicKey).toString('base64'), secretKey: Buffer.from(pair.secretKey).toString('base64') };
}

/** The runner's fingerprint: lowercase hex SHA-256 of the raw public key bytes (decisions §8). */
export function fingerprintOf(publicKeyB64: string): string {
  return createHash('sha256').update(Buffer.from(publicKeyB64, 'base64')).digest('hex');
}

/** The base64 Ed25519 signature of the UTF-8 bytes of a nonce, exactly as the server sent it. */
export function signNonce(key: RunnerKey, nonce: string): string {
  return Buffer.from(nacl.sign.detached(Buffer.from(nonce, 'utf8'), Buffer.from(key.secretKey, 'base64'))).toString('base64');
}

/** A key that is not a well-formed Ed25519 pair (wrong lengths, or a public key that is not the secret key's). */
function checkKey(key: Partial<RunnerKey>, where: string): RunnerKey {
  const pub = typeof key.publicKey === 'string' ? Buffer.from(key.publicKey, 'base64') : Buffer.alloc(0);
  const sec = typeof key.secretKey === 'string' ? Buffer.from(key.secretKey, 'base64') : Buffer.alloc(0);
  if (pub.length !== nacl.sign.publicKeyLength || sec.length !== nacl.sign.secretKeyLength) {
    throw new Error(`${where} does not hold an Ed25519 key (publicKey: base64 of 32 bytes, secretKey: base64 of 64 bytes)`);
  }
  if (!Buffer.from(nacl.sign.keyPair.fromSecretKey(sec).publicKey).equals(pub)) throw new Error(`${where}: the publicKey does not belong to the secretKey`);
  return { publicKey: key.publicKey!, secretKey: key.secretKey! };
}

/**
 * The runner's key from a JSON file, made there first when the file does not exist: the directory
 * is created with mode 0700 and the file written with mode 0600. A key file that the group or
 * others may read (or write) is refused, as ssh refuses an unprotected private key.
 */
export function loadOrCreateRunnerKey(file: string): RunnerKey {
  let mode: number | undefined;
  try {
    mode = statSync(file).mode;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (mode === undefined) {
    const key = generateRunnerKey();
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    try {
      // wx: a runner started twice at once must not overwrite the key the other just made
      writeFileSync(file, `${JSON.stringify({ ...key, fingerprint: fingerprintOf(key.publicKey), createdAt: new Date().toISOString() }, null, 2)}\n`, {
        mode: 0o600,
        flag: 'wx',
      });
      chmodSync(file, 0o600); // whatever the umask
      return key;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      mode = statSync(file).mode;
    }
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new Error(
      `refusing to use the runner key ${file}: its mode is ${(mode & 0o777).toString(8).padStart(4, '0')}, so the group or others may read it. ` +
        `Only its owner may: run \`chmod 600 ${file}\` (and make a new key if others could have copied it).`,
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`the runner key ${file} is not JSON: ${(e as Error).message}`);
  }
  return checkKey((doc ?? {}) as Partial<RunnerKey>, `the runner key ${file}`);
}

// ---------------------------------------------------------------- the client

/** The downloaded bytes do not have the SHA-256 the caller expected. */
export class ChecksumMismatch extends Error {
  constructor(
    readonly fileId: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`file ${fileId}: expected SHA-256 ${expected}, received ${actual}`);
    this.name = 'ChecksumMismatch';
  }
}

export interface RunnerClientOptions {
  /** The server's origin, e.g. http://127.0.0.1:8080 (a trailing /api/v1 is accepted). */
  baseUrl: string;
  key: RunnerKey;
  userAgent?: string;
  /** How long an ordinary call may take, in ms (default 60 s); long polls wait longer, transfers up to 10 minutes. */
  timeoutMs?: number;
  /** The language ids this runner has installed, sent with each authentication (see `reportLanguages`). */
  languages?: readonly string[];
}

/** What identifies a held job in every call about it. */
export type HeldJob = Pick<ClaimedJob, 'jobId' | 'leaseToken'>;
export type ClaimedTrial = OperationOutput<typeof ops.claimTrial>;
export type HeldTrial = Pick<ClaimedTrial, 'trialId' | 'leaseToken'>;
export type RegisterInput = Omit<OperationInput<typeof ops.registerRunner>['body'], 'publicKey'>;
export type ClaimOptions = OperationInput<typeof ops.claimJob>['body'];
export type JobReport = Omit<OperationInput<typeof ops.reportJob>['body'], 'leaseToken'>;
export type TrialReport = Omit<OperationInput<typeof ops.reportTrial>['body'], 'leaseToken'>;
export type ClaimedSampleRun = OperationOutput<typeof ops.claimSampleRun>;
export type HeldSampleRun = Pick<ClaimedSampleRun, 'sampleRunId' | 'leaseToken'>;
export type SampleRunReport = Omit<OperationInput<typeof ops.reportSampleRun>['body'], 'leaseToken'>;

/** Extra time a long poll's fetch gets beyond the server's wait. */
const LONG_POLL_MARGIN_MS = 30_000;
const TRANSFER_TIMEOUT_MS = 600_000;

/**
 * The runner side of the protocol (decisions §8). Composes a credential-less ApiClient for the
 * transport and adds the runner's own token: `authenticate()` trades a signed nonce for it, and
 * every runner call that the server answers 401 (no token yet, expired after 12 h, unknown after
 * the server lost it) authenticates once more by itself and is sent again. Any other failure is an
 * ApiProblem; 403 `runner.notApproved` means the runner must stop.
 */
export class RunnerClient {
  readonly http: ApiClient;
  readonly key: RunnerKey;
  readonly fingerprint: string;
  /** Set by register(). */
  runnerId: string | undefined;
  token: string | undefined;
  tokenExpiresAt: string | undefined;
  private readonly timeoutMs: number;
  private authenticating: Promise<string> | undefined;
  private languages: readonly string[] | undefined;
  /** The languages the held token was issued with: a token from before `reportLanguages` told the server none. */
  private tokenLanguages: readonly string[] | undefined;

  constructor(opts: RunnerClientOptions) {
    this.http = new ApiClient({ baseUrl: opts.baseUrl, ...(opts.userAgent ? { userAgent: opts.userAgent } : {}) });
    this.key = checkKey(opts.key, 'the runner key');
    this.fingerprint = fingerprintOf(opts.key.publicKey);
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.languages = opts.languages;
  }

  /**
   * The languages this runner can judge, told to the server at each authentication. A token already
   * held that was issued with other languages is dropped, so the next call authenticates again and
   * the server learns them at once.
   */
  reportLanguages(languages: readonly string[]): void {
    this.languages = [...languages];
    if (this.token && !sameList(this.tokenLanguages, this.languages)) this.token = undefined;
  }

  get baseUrl(): string {
    return this.http.baseUrl;
  }

  // ---- the handshake (anonymous calls)

  /** Registers this key, or refreshes what the server knows of it; a new key waits for an administrator's approval. */
  async register(body: RegisterInput) {
    const r = await this.http.call(ops.registerRunner, { body: { ...body, publicKey: this.key.publicKey }, signal: AbortSignal.timeout(this.timeoutMs) });
    this.runnerId = r.runnerId;
    return r;
  }

  /** Challenge → signature → token, kept on the client. Concurrent callers share one handshake. */
  async authenticate(): Promise<{ token: string; expiresAt: string }> {
    const token = await this.reauthenticate();
    return { token, expiresAt: this.tokenExpiresAt! };
  }

  private reauthenticate(): Promise<string> {
    this.authenticating ??= (async () => {
      try {
        const signal = () => AbortSignal.timeout(this.timeoutMs);
        const { nonce } = await this.http.call(ops.runnerChallenge, { body: { fingerprint: this.fingerprint }, signal: signal() });
        const languages = this.languages;
        const body = { fingerprint: this.fingerprint, nonce, signature: signNonce(this.key, nonce), ...(languages ? { languages: [...languages] } : {}) };
        const t = await this.http.call(ops.runnerToken, { body, signal: signal() });
        this.tokenLanguages = languages;
        this.token = t.token;
        this.tokenExpiresAt = t.expiresAt;
        return t.token;
      } finally {
        this.authenticating = undefined;
      }
    })();
    return this.authenticating;
  }

  // ---- the generic runner call

  /**
   * Calls a runner operation with this runner's token. A 401 authenticates again (once) and
   * retries; a token another concurrent call already replaced is simply retried with the new one.
   */
  async call<O extends Operation>(op: O, input: CallInput<O> = {} as CallInput<O>, timeoutMs = this.timeoutMs): Promise<OperationOutput<O>> {
    let token = this.token ?? (await this.reauthenticate());
    for (let tries = 0; ; tries++) {
      try {
        const authed = { ...input, headers: { ...input.headers, authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) } as CallInput<O>;
        return await this.http.call(op, authed);
      } catch (e) {
        if (!(e instanceof ApiProblem) || e.status !== 401 || tries > 0) throw e;
        token = this.token !== token && this.token ? this.token : await this.reauthenticate();
      }
    }
  }

  // ---- jobs

  /**
   * The next job for this runner, or null when none came (204). With `waitSeconds` the server
   * holds the request open until a job is queued (long poll); the fetch waits that long and more.
   */
  async claim(opts: ClaimOptions = {}): Promise<ClaimedJob | null> {
    const job = await this.call(ops.claimJob, { body: opts }, this.timeoutMs + (opts.waitSeconds ?? 0) * 1000 + LONG_POLL_MARGIN_MS);
    return job ?? null;
  }

  /** Extends the lease (never shortens it); answers the new expiry. */
  renew(job: HeldJob, leaseSeconds?: number) {
    return this.call(ops.renewJobLease, { params: { jobId: job.jobId }, body: { leaseToken: job.leaseToken, ...(leaseSeconds !== undefined ? { leaseSeconds } : {}) } });
  }

  /** How far judging got; also extends the lease by its default. */
  async progress(job: HeldJob, done: number, total: number): Promise<void> {
    await this.call(ops.jobProgress, { params: { jobId: job.jobId }, body: { leaseToken: job.leaseToken, done, total } });
  }

  /** Gives the job back; it is queued again at once. */
  async release(job: HeldJob): Promise<void> {
    await this.call(ops.releaseJob, { params: { jobId: job.jobId }, body: { leaseToken: job.leaseToken } });
  }

  /** The result of a held job; a repeat of the same report answers `duplicate: true`. */
  report(job: HeldJob, body: JobReport) {
    return this.call(ops.reportJob, { params: { jobId: job.jobId }, body: { ...body, leaseToken: job.leaseToken } });
  }

  /** Attaches an uploaded file to the attempt of a held job. */
  async attachToJob(job: HeldJob, fileId: string, name: string): Promise<void> {
    await this.call(ops.attachJobFile, { params: { jobId: job.jobId }, body: { leaseToken: job.leaseToken, fileId, name } });
  }

  // ---- files

  /** A file of a held job or trial; with `expectedSha256` the bytes are checked (ChecksumMismatch otherwise). */
  async download(fileId: string, expectedSha256?: string): Promise<Uint8Array> {
    const bytes = new Uint8Array(await this.call(ops.downloadRunnerFile, { params: { id: fileId } }, Math.max(this.timeoutMs, TRANSFER_TIMEOUT_MS)));
    if (expectedSha256 !== undefined) {
      const actual = createHash('sha256').update(bytes).digest('hex');
      if (actual !== expectedSha256.toLowerCase()) throw new ChecksumMismatch(fileId, expectedSha256, actual);
    }
    return bytes;
  }

  /** Uploads bytes (with their SHA-256) to attach to a job or to the runner afterwards. */
  upload(name: string, bytes: Uint8Array | string, mimeType = 'application/octet-stream'): Promise<FileMeta> {
    const data = typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes;
    const sha256 = createHash('sha256').update(data).digest('hex');
    const form = new FormData();
    form.set('sha256', sha256);
    form.set('file', new Blob([new Uint8Array(data)], { type: mimeType }), name);
    // fetch serialises a FormData afresh each time, so a retry after re-authenticating sends it whole again
    return this.call(ops.uploadRunnerFile, { form }, Math.max(this.timeoutMs, TRANSFER_TIMEOUT_MS));
  }

  /** Attaches an uploaded file to the runner itself (a newer file under the same name replaces it). */
  async attachToRunner(fileId: string, name: string): Promise<void> {
    await this.call(ops.attachRunnerFile, { body: { fileId, name } });
  }

  async heartbeat(): Promise<void> {
    await this.call(ops.runnerHeartbeat, {});
  }

  // ---- trials

  async claimTrial(opts: ClaimOptions = {}): Promise<ClaimedTrial | null> {
    const trial = await this.call(ops.claimTrial, { body: opts }, this.timeoutMs + (opts.waitSeconds ?? 0) * 1000 + LONG_POLL_MARGIN_MS);
    return trial ?? null;
  }

  renewTrial(trial: HeldTrial, leaseSeconds?: number) {
    return this.call(ops.renewTrialLease, {
      params: { trialId: trial.trialId },
      body: { leaseToken: trial.leaseToken, ...(leaseSeconds !== undefined ? { leaseSeconds } : {}) },
    });
  }

  reportTrial(trial: HeldTrial, body: TrialReport) {
    return this.call(ops.reportTrial, { params: { trialId: trial.trialId }, body: { ...body, leaseToken: trial.leaseToken } });
  }

  /** The next sample run, unless a job this runner could take waits; never waits itself. */
  async claimSampleRun(opts: Omit<ClaimOptions, 'waitSeconds' | 'sampleRuns'> = {}): Promise<ClaimedSampleRun | null> {
    const run = await this.call(ops.claimSampleRun, { body: opts });
    return run ?? null;
  }

  renewSampleRun(run: HeldSampleRun, leaseSeconds?: number) {
    return this.call(ops.renewSampleRunLease, {
      params: { sampleRunId: run.sampleRunId },
      body: { leaseToken: run.leaseToken, ...(leaseSeconds !== undefined ? { leaseSeconds } : {}) },
    });
  }

  reportSampleRun(run: HeldSampleRun, body: SampleRunReport) {
    return this.call(ops.reportSampleRun, { params: { sampleRunId: run.sampleRunId }, body: { ...body, leaseToken: run.leaseToken } });
  }
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return a === b || (!!a && !!b && a.length === b.length && a.every((x, i) => x === b[i]));
}
