import type { Activity } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useState } from 'react';
import { api, call, fileUrl } from '../../../api/client';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { SelectField, TextField } from './fields';
import { useRefetchActivity } from './queries';
import { errorsByField, Refusal } from './Refusal';

const KINDS = ['rules', 'welcome', 'home', 'terms', 'privacy', 'cookies', 'accessibility'] as const;
type Kind = (typeof KINDS)[number];

/**
 * The activity's documents (rules, welcome page, ...), one per language and kind: a file chosen
 * here is uploaded and joins the others of its kind, replacing the one of its language.
 */
export function DocumentsEditor({ activity }: { activity: Activity }) {
  const t = useT();
  const refetch = useRefetchActivity();
  const [kind, setKind] = useState<Kind>('rules');
  const [language, setLanguage] = useState('en');
  const [title, setTitle] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const { busy, error, submit } = useFormSend();
  const [removing, setRemoving] = useState<unknown>(null);
  const errors = errorsByField(error);

  const onSubmit = submit(async () => {
    if (!file) throw new Error(t('staff.activities.docs.noFile'));
    const stored = await api.upload(file.name, new Uint8Array(await file.arrayBuffer()), file.type || 'text/markdown');
    const others = activity.documents.filter((x) => x.kind === kind && x.language !== language).map((x) => ({ language: x.language, title: x.title, fileId: x.fileId }));
    await call(ops.setActivityDocuments, { params: { idOrSlug: activity.id, kind }, body: { documents: [...others, { language, title, fileId: stored.id }] } });
    setTitle('');
    setFile(null);
    await refetch();
  });
  const remove = (k: string) => async () => {
    setRemoving(null);
    try {
      await call(ops.deleteActivityDocuments, { params: { idOrSlug: activity.id, kind: k as Kind } });
      await refetch();
    } catch (e) {
      setRemoving(e);
    }
  };
  const kinds = [...new Set(activity.documents.map((x) => x.kind))];
  return (
    <section className="staff-panel" aria-labelledby="docs-heading">
      <h3 id="docs-heading">{t('staff.activities.docs')}</h3>
      <p className="muted">{t('staff.activities.docs.hint')}</p>
      {kinds.length === 0 && <p>{t('staff.activities.docs.none')}</p>}
      <ul className="doc-list">
        {kinds.map((k) => (
          <li key={k}>
            <strong>{t(`staff.activities.docKind.${k as Kind}`)}</strong>:{' '}
            {activity.documents
              .filter((x) => x.kind === k)
              .map((x, i) => (
                <span key={x.language}>
                  {i > 0 && ', '}
                  <a href={fileUrl(x.fileId)}>{x.title}</a> ({x.language})
                </span>
              ))}{' '}
            <button type="button" className="link-button" onClick={remove(k)}>
              {t('staff.activities.docs.remove', { kind: t(`staff.activities.docKind.${k as Kind}`) })}
            </button>
          </li>
        ))}
      </ul>
      <Refusal error={removing} />
      <form className="form staff-form doc-form" onSubmit={onSubmit} noValidate aria-label={t('staff.activities.docs.add')}>
        <SelectField label={t('staff.activities.docs.kind')} value={kind} onChange={setKind} options={KINDS.map((k) => ({ value: k, label: t(`staff.activities.docKind.${k}`) }))} />
        <TextField label={t('staff.activities.docs.language')} hint={t('staff.activities.docs.language.hint')} errors={errors.documents} value={language} onChange={setLanguage} />
        <TextField label={t('staff.activities.docs.title')} value={title} onChange={setTitle} />
        <div className="field">
          <label htmlFor="doc-file">{t('staff.activities.docs.file')}</label>
          <input id="doc-file" type="file" accept=".md,.pdf,.html,text/markdown,application/pdf,text/html" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </div>
        <Refusal error={error} />
        <div className="form-actions">
          <button type="submit" disabled={busy}>
            {t('staff.activities.docs.add')}
          </button>
        </div>
      </form>
    </section>
  );
}
