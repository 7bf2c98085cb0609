import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { fileUrl } from '../../api/client';
import { keys } from '../../api/keys';
import { ErrorBox, Loading } from '../../components/Status';
import { useI18n, useT } from '../../i18n/I18n';
import { languageName, languageOf, pickStatement, statementFormat, type StatementItem } from './statements';

const SAVED_LANGUAGE = 'judge.statementLanguage';

/** A statement file's text, read with the session cookie like any file of this origin. */
async function statementText(fileId: string): Promise<string> {
  const res = await fetch(fileUrl(fileId), { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.text();
}

/** The renderer a format needs, loaded on demand: Markdown brings markdown-it and KaTeX, HTML only the sanitizer and KaTeX's styles. */
async function rendererFor(format: 'markdown' | 'html'): Promise<(text: string) => string> {
  if (format === 'markdown') return (await import('./markdown')).renderMarkdown;
  return (await import('./sanitize')).sanitizeStatement;
}

function Rendered({ item, format }: { item: StatementItem; format: 'markdown' | 'html' | 'text' }) {
  const t = useT();
  // the text and the renderer's code are fetched at the same time, not one after the other
  const text = useQuery({ queryKey: keys.fileText(item.sha256), queryFn: () => statementText(item.fileId), staleTime: Infinity });
  const render = useQuery({ queryKey: ['statement-renderer', format], queryFn: () => (format === 'text' ? null : rendererFor(format)), staleTime: Infinity, enabled: format !== 'text' });
  const html = useMemo(() => (text.data !== undefined && render.data ? render.data(text.data) : undefined), [text.data, render.data]);
  if (text.isError) return <ErrorBox error={text.error} title={t('problem.statement.failed')} />;
  if (render.isError) return <ErrorBox error={render.error} title={t('problem.statement.failed')} />;
  if (format === 'text') return text.data === undefined ? <Loading /> : <pre className="statement-text">{text.data}</pre>;
  if (html === undefined) return <Loading label={t('problem.statement.loading')} />;
  return <div className="statement-body" lang={languageOf(item) || undefined} dangerouslySetInnerHTML={{ __html: html }} />;
}

function Pdf({ item }: { item: StatementItem }) {
  const t = useT();
  return (
    <div className="statement-pdf">
      <iframe src={fileUrl(item.fileId)} title={t('problem.statement.pdfTitle')} />
      <a href={fileUrl(item.fileId)} download={item.name.split('/').pop()}>
        {t('problem.statement.downloadPdf')}
      </a>
    </div>
  );
}

function LanguagePicker({ statements, chosen, onChoose }: { statements: StatementItem[]; chosen: StatementItem; onChoose(s: StatementItem): void }) {
  const { t, lang } = useI18n();
  const id = useId();
  if (statements.length < 2) return null;
  return (
    <div className="statement-language">
      <label htmlFor={id}>{t('problem.statement.language')}</label>
      <select id={id} value={chosen.fileId} onChange={(e) => onChoose(statements.find((s) => s.fileId === e.target.value) ?? chosen)}>
        {statements.map((s) => (
          <option key={s.fileId} value={s.fileId} lang={languageOf(s) || undefined}>
            {languageName(languageOf(s), lang)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The problem's statement in the language the reader picks (remembered in this browser), shown by its format. */
export function Statement({ statements }: { statements: StatementItem[] }) {
  const t = useT();
  const [saved, setSaved] = useState(() => localStorage.getItem(SAVED_LANGUAGE));
  const chosen = pickStatement(statements, saved, navigator.languages ?? [navigator.language]);
  if (!chosen) return <p className="notice">{t('problem.statement.none')}</p>;
  const choose = (s: StatementItem) => {
    const tag = languageOf(s);
    if (tag) localStorage.setItem(SAVED_LANGUAGE, tag);
    setSaved(tag);
  };
  const format = statementFormat(chosen);
  return (
    <section className="statement" aria-label={t('problem.statement.title')}>
      <LanguagePicker statements={statements} chosen={chosen} onChoose={choose} />
      {format === 'pdf' ? <Pdf item={chosen} /> : <Rendered key={chosen.fileId} item={chosen} format={format} />}
    </section>
  );
}
