import type { Runner } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { ErrorBox } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { useRunnerAction } from './queries';

/** What the server takes as a tag (contract RunnerTags): said here so a typo is named before sending. */
const TAG = /^[A-Za-z0-9_.:-]{1,64}$/;

export function parseTags(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/** Sets a runner's tags from one line of text; the series that require tags match on them. */
export function TagEditor({ runner: r, close }: { runner: Runner; close(): void }) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState(r.tags.join(', '));
  const tags = parseTags(text);
  const bad = tags.find((x) => !TAG.test(x));
  const act = useRunnerAction((list: string[]) => call(ops.setRunnerTags, { params: { id: r.id }, body: { tags: list } }));
  return (
    <form className="tag-editor" onSubmit={(e) => (e.preventDefault(), !bad && act.mutate(tags, { onSuccess: close }))}>
      <label htmlFor={`${id}-tags`}>{t('staff.runners.tagsOf', { name: r.name })}</label>
      <input id={`${id}-tags`} value={text} onChange={(e) => setText(e.target.value)} aria-describedby={`${id}-help`} aria-invalid={!!bad} autoFocus />
      <p id={`${id}-help`} className="muted">
        {bad ? <span className="warn">{t('staff.runners.tagsBad', { tag: bad })}</span> : t('staff.runners.tagsHelp')}
      </p>
      <div className="confirm">
        <button type="submit" disabled={act.isPending || !!bad}>
          {t('staff.runners.saveTags')}
        </button>
        <button type="button" onClick={close}>
          {t('staff.cancel')}
        </button>
      </div>
      {act.isError && <ErrorBox error={act.error} />}
    </form>
  );
}
