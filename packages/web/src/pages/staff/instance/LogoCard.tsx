import type { InstanceSettings } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { instanceFileUrl } from '../../../app/instance-look';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { LANGUAGES } from '../../../i18n/define';
import { useT } from '../../../i18n/I18n';
import { uploadChosen } from './upload';

/** The logo: one for every language, and one per language where it differs (a name in another script). */
export function LogoCard({ settings }: { settings: InstanceSettings }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [language, setLanguage] = useState('');
  const send = useFormSend();
  const save = async (body: { fileId?: string; language?: string }) => qc.setQueryData(keys.instance, await call(ops.setLogo, { body }));
  const onSet = send.submit(async () => {
    if (!file) return;
    await save({ fileId: await uploadChosen(file), ...(language ? { language } : {}) });
    setFile(null);
  });
  const remove = (lang?: string) => send.submit(async () => void (await save(lang ? { language: lang } : {})));
  const shown = [...(settings.logo ? [{ language: '', fileId: settings.logo.fileId }] : []), ...settings.logoTranslations.map((l) => ({ language: l.language, fileId: l.logo.fileId }))];
  return (
    <section className="card admin-card" id="look-logo" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('staff.look.logo')}</h2>
      <p className="muted">{t('staff.look.logo.help')}</p>
      {!settings.showLogo && <p className="notice">{t('staff.look.logo.hidden')}</p>}
      {shown.length === 0 && <p>{t('staff.look.logo.none')}</p>}
      <ul className="logo-list">
        {shown.map((l) => (
          <li key={l.language || 'default'}>
            <img src={instanceFileUrl(l.fileId)} alt="" />
            <span>{l.language ? (LANGUAGES as Record<string, string>)[l.language] ?? l.language : t('staff.look.logo.current')}</span>
            <form onSubmit={remove(l.language || undefined)}>
              <button type="submit" className="link-button" disabled={send.busy}>
                {l.language ? t('staff.look.logo.removeFor', { language: l.language }) : t('staff.look.logo.remove')}
              </button>
            </form>
          </li>
        ))}
      </ul>
      <form className="form admin-form" onSubmit={onSet}>
        <label htmlFor={`${id}-file`}>{t('staff.look.logo.file')}</label>
        <input id={`${id}-file`} type="file" accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        <label htmlFor={`${id}-lang`}>{t('staff.look.logo.language')}</label>
        <select id={`${id}-lang`} value={language} onChange={(e) => setLanguage(e.target.value)}>
          <option value="">{t('staff.look.logo.anyLanguage')}</option>
          {Object.entries(LANGUAGES).map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
        {send.error !== null && <ErrorBox error={send.error} />}
        <button type="submit" className="primary" disabled={!file || send.busy}>
          {t('staff.look.logo.set')}
        </button>
      </form>
    </section>
  );
}
