/**
 * One test of the `details` attachment a runner writes for a judged attempt (JSON): the runner
 * fills it, and participants' pages read it when the activity shows them the attachment.
 * `V` narrows the verdict to the runner's own codes.
 */
export interface JudgeTestDetail<V extends string = string> {
  test: string;
  group: string;
  verdict: V;
  cpuMs?: number;
  wallMs?: number;
  memoryBytes?: number | null;
  score?: number;
  maxScore?: number | null;
  /** Validator or runtime feedback, trimmed. */
  feedback?: string;
  /** The format reveals this test's data after a failure (samples by default). */
  fullFeedback?: boolean;
  /** False when the test ran only because every test was asked for (it does not count). */
  counted?: false;
  /**
   * The start (64 KiB) of what the program wrote, on a failed test the format reveals (samples):
   * with the sample's input and answer, which participants have anyway, it shows what went wrong.
   */
  output?: string;
}
