import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox } from '../../components/Status';
import { useFormSend } from '../../components/useFormSend';
import { useT } from '../../i18n/I18n';
import { bytes } from '../submit/checks';
import { PRINTOUT_SOURCE_MAX, printoutRefusal } from './limits';

interface Draft {
  title: string;
  fileName: string;
  source: string;
}
const EMPTY: Draft = { title: '', fileName: '', source: '' };

/** A file chosen from disk fills in its name and text; the text can still be edited before sending. */
function FileChooser({ onRead, onTooLarge }: { onRead(name: string, text: string): void; onTooLarge(): void }) {
  const t = useT();
  return (
    <label>
      {t('printouts.form.file')}
      <input
        type="file"
        name="file"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (!f) return;
          if (f.size > PRINTOUT_SOURCE_MAX) return onTooLarge();
          void f.text().then((text) => onRead(f.name, text));
        }}
      />
    </label>
  );
}

/** Asks to print a file's text: chosen from disk or typed in. */
export function RequestForm({ slug }: { slug: string }) {
  const t = useT();
  const qc = useQueryClient();
  const [d, setD] = useState<Draft>(EMPTY);
  const { busy, sent, error, submit } = useFormSend();
  const [tooLarge, setTooLarge] = useState(false);
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));

  const send = submit(async () => {
    await call(ops.requestPrintout, { params: { idOrSlug: slug }, body: { fileName: d.fileName, source: d.source, ...(d.title.trim() ? { title: d.title } : {}) } });
    setD(EMPTY);
    await qc.invalidateQueries({ queryKey: keys.printouts(slug) });
  });

  const refusal = printoutRefusal(error);
  return (
    <form className="form card printout-form" onSubmit={(e) => void send(e)} aria-labelledby="printout-form-title">
      <h2 id="printout-form-title">{t('printouts.form.title')}</h2>
      <FileChooser onRead={(fileName, source) => (setTooLarge(false), set({ fileName, source }))} onTooLarge={() => setTooLarge(true)} />
      {tooLarge && <p className="error-box" role="alert">{t('printouts.form.tooLarge', { max: bytes(PRINTOUT_SOURCE_MAX) })}</p>}
      <label>
        {t('printouts.form.fileName')}
        <input name="fileName" required maxLength={255} value={d.fileName} onChange={(e) => set({ fileName: e.target.value })} />
      </label>
      <label>
        {t('printouts.form.source')}
        <textarea name="source" required rows={8} className="printout-source" value={d.source} onChange={(e) => set({ source: e.target.value })} />
      </label>
      <label>
        {t('printouts.form.titleField')}
        <input name="title" maxLength={200} value={d.title} onChange={(e) => set({ title: e.target.value })} />
      </label>
      {refusal ? <p className="error-box" role="alert">{t(refusal)}</p> : error !== null && <ErrorBox error={error} />}
      <div>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('printouts.form.sending') : t('printouts.form.send')}
        </button>
      </div>
      <p role="status" className="printout-sent">
        {sent && t('printouts.form.sent')}
      </p>
    </form>
  );
}
