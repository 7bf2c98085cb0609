import type { InstanceSettings } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { uploadChosen } from './upload';

const WEIGHTS = [100, 200, 300, 400, 500, 600, 700, 800, 900];

/** Font files the theme's families may name; each is served to every page with its type. */
export function FontsCard({ settings }: { settings: InstanceSettings }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [family, setFamily] = useState('');
  const [weight, setWeight] = useState(400);
  const [italic, setItalic] = useState(false);
  const send = useFormSend();
  const onAdd = send.submit(async () => {
    if (!file) return;
    const fileId = await uploadChosen(file, 'font/woff2');
    const body = { fileId, name: name.trim(), weight, style: italic ? ('italic' as const) : ('normal' as const), ...(family.trim() ? { family: family.trim() } : {}) };
    qc.setQueryData(keys.instance, await call(ops.addFont, { body }));
    setFile(null);
    setName('');
  });
  const remove = (font: string) => send.submit(async () => void qc.setQueryData(keys.instance, await call(ops.deleteFont, { params: { name: font } })));
  const fonts = settings.theme.fonts;
  return (
    <section className="card admin-card" id="look-fonts" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('staff.look.fonts')}</h2>
      <p className="muted">{t('staff.look.fonts.help')}</p>
      {fonts.length === 0 ? (
        <p>{t('staff.look.fonts.none')}</p>
      ) : (
        <ul className="font-list">
          {fonts.map((f) => (
            <li key={f.name}>
              <span>
                <strong>{f.name}</strong> · {f.family} {f.weight} {f.style}
              </span>
              <form onSubmit={remove(f.name)}>
                <button type="submit" className="link-button" disabled={send.busy}>
                  {t('staff.look.fonts.remove', { name: f.name })}
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <form className="form admin-form" onSubmit={onAdd}>
        <label htmlFor={`${id}-file`}>{t('staff.look.fonts.file')}</label>
        <input id={`${id}-file`} type="file" accept=".woff2,.woff,.ttf,.otf" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        <label htmlFor={`${id}-name`}>{t('staff.look.fonts.name')}</label>
        <input id={`${id}-name`} value={name} required maxLength={64} onChange={(e) => setName(e.target.value)} />
        <label htmlFor={`${id}-family`}>{t('staff.look.fonts.family')}</label>
        <input id={`${id}-family`} value={family} placeholder={name} maxLength={100} onChange={(e) => setFamily(e.target.value)} />
        <label htmlFor={`${id}-weight`}>{t('staff.look.fonts.weight')}</label>
        <select id={`${id}-weight`} value={weight} onChange={(e) => setWeight(Number(e.target.value))}>
          {WEIGHTS.map((w) => (
            <option key={w} value={w}>
              {w}
            </option>
          ))}
        </select>
        <label className="check">
          <input type="checkbox" checked={italic} onChange={(e) => setItalic(e.target.checked)} /> {t('staff.look.fonts.italic')}
        </label>
        {send.error !== null && <ErrorBox error={send.error} />}
        <button type="submit" className="primary" disabled={!file || !name.trim() || send.busy}>
          {t('staff.look.fonts.add')}
        </button>
      </form>
    </section>
  );
}
