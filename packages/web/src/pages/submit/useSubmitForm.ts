import type { ParticipantProblem, SubmissionSummary } from '@judge/contract';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api } from '../../api/client';
import { keys } from '../../api/keys';
import { noticesBefore, type Notice } from './checks';
import { lastLanguage, loadDraft, rememberLanguage, saveDraft } from './draft';
import { refusalOf, type Refusal } from './errors';
import { hintMaintenance } from '../../api/maintenanceHint';
import { guessFromCode } from './guessCode';
import { guessLanguage, pastedFileName } from './languages';

/** The query key of the author's submissions to one problem (in the `submissions` family the socket refreshes). */
export const problemSubmissionsKey = (activity: string, problemId: string) => [...keys.submissions(activity), 'problem', problemId] as const;

type Listed = { items: SubmissionSummary[]; total: number; page: number; pageSize: number };

/** Shows a new submission at once, from the submit's own answer, before any refetch could. */
function seed(qc: QueryClient, activity: string, problemId: string, s: SubmissionSummary): void {
  qc.setQueryData<Listed>(problemSubmissionsKey(activity, problemId), (old) =>
    old ? { ...old, total: old.total + 1, items: [s, ...old.items.filter((x) => x.id !== s.id)] } : { items: [s], total: 1, page: 1, pageSize: 10 },
  );
  void qc.invalidateQueries({ queryKey: keys.submissions(activity) });
  void qc.invalidateQueries({ queryKey: ['problem'] });
}

function initialLanguage(activity: string, problem: ParticipantProblem): string {
  const allowed = problem.allowedLanguages;
  const wanted = [loadDraft(localStorage, activity, problem.slug)?.language, lastLanguage(localStorage)];
  return wanted.find((id) => id && allowed.some((l) => l.id === id)) ?? allowed[0]?.id ?? '';
}

/** The submit form's state: language, code (kept as a draft), chosen files, what holds it back, and sending. */
export function useSubmitForm(activity: string, problem: ParticipantProblem) {
  const qc = useQueryClient();
  const [language, setLanguageState] = useState(() => initialLanguage(activity, problem));
  const [code, setCode] = useState(() => loadDraft(localStorage, activity, problem.slug)?.code ?? '');
  const [files, setFilesState] = useState<File[]>([]);
  /** The language the form chose by itself, and from what: a file's name or pasted code. */
  const [guessed, setGuessed] = useState<{ id: string; from: 'file' | 'code' } | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [sent, setSent] = useState<SubmissionSummary | null>(null);

  useEffect(() => saveDraft(localStorage, activity, problem.slug, { language, code }), [activity, problem.slug, language, code]);

  const notices: Notice[] = useMemo(
    () => noticesBefore(problem, { files: files.map((f) => ({ name: f.name, size: f.size })), codeBytes: new TextEncoder().encode(code).length, language, code }),
    [problem, files, code, language],
  );
  const blocked = notices.some((n) => n.blocking) || (!files.length && !code.trim());

  function setLanguage(id: string) {
    setLanguageState(id);
    setGuessed(null);
    rememberLanguage(localStorage, id);
  }

  function setFiles(list: File[]) {
    setFilesState(list);
    const guess = list.length ? guessLanguage(list.map((f) => f.name), problem.allowedLanguages, language) : undefined;
    if (guess) {
      setLanguageState(guess);
      rememberLanguage(localStorage, guess);
    }
    setGuessed(guess ? { id: guess, from: 'file' } : null);
  }

  /** Pasted code has no file name: its content says which allowed language it is in, if it is sure. */
  function pasted(text: string) {
    const guess = guessFromCode(text, problem.allowedLanguages, language)?.language;
    if (!guess) return;
    setLanguageState(guess.id);
    rememberLanguage(localStorage, guess.id);
    setGuessed({ id: guess.id, from: 'code' });
  }

  async function send() {
    if (blocked || busy) return;
    setBusy(true);
    setRefusal(null);
    setFailure(null);
    setSent(null);
    try {
      const lang = problem.allowedLanguages.find((l) => l.id === language);
      const parts = files.length
        ? await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })))
        : [{ name: pastedFileName(lang), bytes: code }];
      const s = await api.submit(activity, problem.slug, parts, { language });
      seed(qc, activity, problem.id, s);
      setSent(s);
      setFilesState([]);
    } catch (e) {
      hintMaintenance(e);
      const r = refusalOf(e, problem);
      if (r) setRefusal(r);
      else setFailure(e);
    } finally {
      setBusy(false);
    }
  }

  return { language, setLanguage, code, setCode, pasted, files, setFiles, guessed, notices, blocked, busy, refusal, failure, sent, send };
}

export type SubmitForm = ReturnType<typeof useSubmitForm>;
