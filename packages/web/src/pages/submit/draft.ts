/**
 * The code being written, kept in the browser per activity and problem (with the language it is
 * in), so that a reload, a crash or a closed tab loses nothing; and the language last used, which
 * the next problem starts with.
 */
export interface Draft {
  language: string;
  code: string;
}

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const draftKey = (activity: string, problem: string) => `judge.draft.${activity}.${problem}`;
const LAST_LANGUAGE = 'judge.lastLanguage';

export function loadDraft(store: Store, activity: string, problem: string): Draft | null {
  try {
    const raw = store.getItem(draftKey(activity, problem));
    const d = raw ? (JSON.parse(raw) as Partial<Draft>) : null;
    return d && typeof d.code === 'string' && typeof d.language === 'string' ? { language: d.language, code: d.code } : null;
  } catch {
    return null;
  }
}

/** Saves the draft; an empty one is forgotten. A full storage is not worth failing the page for. */
export function saveDraft(store: Store, activity: string, problem: string, draft: Draft): void {
  try {
    if (draft.code === '') store.removeItem(draftKey(activity, problem));
    else store.setItem(draftKey(activity, problem), JSON.stringify(draft));
  } catch {
    /* storage full or blocked: the draft lives only in the page */
  }
}

export function lastLanguage(store: Store): string | null {
  try {
    return store.getItem(LAST_LANGUAGE);
  } catch {
    return null;
  }
}

export function rememberLanguage(store: Store, language: string): void {
  try {
    store.setItem(LAST_LANGUAGE, language);
  } catch {
    /* as saveDraft */
  }
}
