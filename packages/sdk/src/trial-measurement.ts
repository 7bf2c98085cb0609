/** One example submission of a package as a trial judged it, against the directory it sits in. */
export interface TrialExample {
  path: string;
  expected: string;
  language?: string;
  verdict: string;
  score?: number;
  maxScore?: number;
  ok: boolean | null;
  why?: string;
  slowestMs?: number;
  beyondMargin?: boolean;
}

/** A trial's measurement as the runner reports it (its shape: the Trial schema of the contract). */
export interface TrialMeasurement {
  ok: boolean;
  problem?: { name?: string; format?: string; type?: string };
  timing?: {
    timeLimitSeconds?: number;
    timeLimitSource?: string;
    calibrated?: boolean;
    calibrationTimeLimitSeconds?: number;
    multiplier?: number;
    multiplierKey?: string;
    safetyMargin?: number;
    safetyMarginKey?: string;
    slowestAcceptedMs?: number;
    slowestAcceptedRunsMs?: number[];
    slowestAccepted?: string;
    suggestedTimeLimitSeconds?: number;
    tleMarginSeconds?: number;
  };
  submissions?: TrialExample[];
  notRun?: { path: string; expected: string; language?: string; reason: string }[];
  errors?: string[];
  warnings?: string[];
}
