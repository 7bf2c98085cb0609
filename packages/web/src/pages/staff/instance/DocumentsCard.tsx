import type { InstanceDocument } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call, fileUrl } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox, Loading } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import type { MessageKey } from '../../../i18n/catalogue';
import { useT } from '../../../i18n/I18n';
import { uploadChosen } from './upload';

const KINDS = ['terms', 'privacy', 'rules', 'welcome', 'home', 'cookies', 'accessibility'] as const;
type Kind = (typeof KINDS)[number];
const kindLabel = (k: Kind): MessageKey => `staff.look.kind.${k}`;

function History({ kind, history, shown }: { kind: Kind; history: InstanceDocument[]; shown: Set<string> }) {
  const t = useT();
  const now = new Date().toISOString();
  const revisions = history.filter((d) => !d.isTemplate);
  const templates = history.filter((d) => d.isTemplate);
  return (
    <>
      {revisions.length === 0 && <p>{t('staff.look.docs.none')}</p>}
      <ul className="doc-history" aria-label={t(kindLabel(kind))}>
        {revisions.map((d) => (
          <li key={d.fileId + d.validFrom}>
            <a href={fileUrl(d.fileId)}>{d.title}</a> ({d.language}) ·{' '}
            {shown.has(d.fileId) ? <strong>{t('staff.look.docs.inForce')}</strong> : d.validFrom > now ? t('staff.look.docs.future', { date: d.validFrom.slice(0, 16).replace('T', ' ') }) : t('staff.look.docs.superseded')}
          </li>
        ))}
      </ul>
      {templates.length > 0 && (
        <p className="muted">
          {t('staff.look.docs.templateHelp')}{' '}
          {templates.map((d, i) => (
            <span key={d.fileId}>
              {i > 0 && ', '}
              <a href={fileUrl(d.fileId)} download>
                {d.title}
              </a>
            </span>
          ))}
        </p>
      )}
    </>
  );
}

/** Terms, privacy and the rest (`shownFiles`: the files of the documents in force, as GET /instance lists them): the history of one kind, a new revision, and withdrawing them all. */
export function DocumentsCard({ shownFiles }: { shownFiles: string[] }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [kind, setKind] = useState<Kind>('terms');
  const [file, setFile] = useState<File | null>(null);
  const [language, setLanguage] = useState('en');
  const [title, setTitle] = useState('');
  const [validFrom, setValidFrom] = useState('');
  const [said, setSaid] = useState('');
  const history = useQuery({ queryKey: ['instance-documents', kind], queryFn: () => call(ops.listInstanceDocuments, { params: { kind } }) });
  const send = useFormSend();
  const after = async (next: unknown) => {
    qc.setQueryData(keys.instance, next);
    await history.refetch();
  };
  const onPublish = send.submit(async () => {
    setSaid('');
    if (!file) return;
    const fileId = await uploadChosen(file, 'text/markdown');
    const statement = { fileId, language: language.trim() || 'en', ...(title.trim() ? { title: title.trim() } : {}) };
    await after(await call(ops.publishInstanceDocuments, { params: { kind }, body: { statements: [statement], ...(validFrom ? { validFrom: new Date(validFrom).toISOString() } : {}) } }));
    setFile(null);
    setTitle('');
    setSaid(t('staff.look.docs.published'));
  });
  const onWithdraw = send.submit(async () => {
    setSaid('');
    await after(await call(ops.withdrawInstanceDocuments, { params: { kind } }));
  });
  return (
    <section className="card admin-card" id="look-documents" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('staff.look.docs')}</h2>
      <p className="muted">{t('staff.look.docs.help')}</p>
      <label htmlFor={`${id}-kind`}>{t('staff.look.docs.kind')}</label>
      <select id={`${id}-kind`} value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
        {KINDS.map((k) => (
          <option key={k} value={k}>
            {t(kindLabel(k))}
          </option>
        ))}
      </select>
      {history.isPending && <Loading />}
      {history.isError && <ErrorBox error={history.error} />}
      {history.data && <History kind={kind} history={history.data} shown={new Set(shownFiles)} />}
      <form className="form admin-form" onSubmit={onPublish}>
        <label htmlFor={`${id}-file`}>{t('staff.look.docs.file')}</label>
        <input id={`${id}-file`} type="file" accept=".md,.markdown,.txt,.html,.htm,.pdf" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        <label htmlFor={`${id}-lang`}>{t('staff.look.docs.language')}</label>
        <input id={`${id}-lang`} value={language} maxLength={16} onChange={(e) => setLanguage(e.target.value)} />
        <label htmlFor={`${id}-title`}>{t('staff.look.docs.title')}</label>
        <input id={`${id}-title`} value={title} placeholder={t(kindLabel(kind))} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
        <label htmlFor={`${id}-from`}>{t('staff.look.docs.validFrom')}</label>
        <input id={`${id}-from`} type="datetime-local" value={validFrom} onChange={(e) => setValidFrom(e.target.value)} />
        {send.error !== null && <ErrorBox error={send.error} />}
        {said && (
          <p className="ok-box" role="status">
            {said}
          </p>
        )}
        <button type="submit" className="primary" disabled={!file || send.busy}>
          {t('staff.look.docs.publish')}
        </button>
      </form>
      <form className="form admin-form" onSubmit={onWithdraw}>
        <button type="submit" disabled={send.busy || !history.data?.some((d) => shownFiles.includes(d.fileId))}>
          {t('staff.look.docs.withdraw')}
        </button>
      </form>
    </section>
  );
}
