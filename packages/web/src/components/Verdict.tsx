import type { SubmissionState } from '@judge/contract';
import type { MessageKey, Params } from '../i18n/catalogue';
import { useT } from '../i18n/I18n';
import './verdict.css';

/** What a verdict badge needs of a submission, an attempt or a test result. */
export interface Judged {
  state?: SubmissionState;
  verdict?: string;
  progress?: { done: number; total: number };
}

export type Tone = 'ok' | 'bad' | 'warn' | 'pending' | 'neutral';

const KNOWN = ['AC', 'WA', 'TLE', 'MLE', 'OLE', 'RTE', 'CE', 'JE', 'PA'] as const;
const TONE: Record<string, Tone> = { AC: 'ok', PA: 'warn', CE: 'warn', JE: 'neutral' };
// the icon says it too, so that colour is never the only sign
const ICON: Record<Tone, string> = { ok: '✓', bad: '✗', warn: '!', pending: '…', neutral: '?' };

/** The tone of a result: a verdict's, else its state's while there is none. */
export function toneOf(j: Judged): Tone {
  if (j.verdict) return TONE[j.verdict] ?? 'bad';
  if (j.state === 'queued' || j.state === 'running') return 'pending';
  return 'neutral';
}

/** True while the judging of it may still change (queued or running). */
export function isPending(j: Judged): boolean {
  return !j.verdict && (j.state === 'queued' || j.state === 'running');
}

/** The message that says a result: the verdict's, else the state's ("Running: test 3 of 10"). */
export function verdictMessage(j: Judged): { key: MessageKey; params?: Params } {
  if (j.verdict) return (KNOWN as readonly string[]).includes(j.verdict) ? { key: `verdict.${j.verdict}` as MessageKey } : { key: 'verdict.other', params: { code: j.verdict } };
  // the runner reports tests done; the one being run is the next
  if (j.state === 'running' && j.progress && j.progress.total > 0) return { key: 'verdict.state.progress', params: { done: Math.min(j.progress.done + 1, j.progress.total), total: j.progress.total } };
  return { key: `verdict.state.${j.state ?? 'completed'}` as MessageKey };
}

/** A result in words, in the reader's language. */
export function useVerdictWords(): (j: Judged) => string {
  const t = useT();
  return (j) => {
    const m = verdictMessage(j);
    return t(m.key, m.params);
  };
}

/** A verdict or state as a badge: icon, words and colour; the code (AC, WA, …) stays visible for those who know it. */
export function VerdictBadge({ of, showCode = true }: { of: Judged; showCode?: boolean }) {
  const words = useVerdictWords();
  const tone = toneOf(of);
  const running = of.state === 'running' && !of.verdict;
  return (
    <span className={`verdict verdict-${tone}${running ? ' verdict-running' : ''}`} data-verdict={of.verdict ?? of.state}>
      <span className="verdict-icon" aria-hidden="true">
        {ICON[tone]}
      </span>
      <span className="verdict-words">{words(of)}</span>
      {showCode && of.verdict && (KNOWN as readonly string[]).includes(of.verdict) && (
        <abbr className="verdict-code" title={words(of)} aria-hidden="true">
          {of.verdict}
        </abbr>
      )}
    </span>
  );
}
