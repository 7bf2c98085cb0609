import type { InstanceSettings, Palette } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { uploadChosen } from './upload';

/** The palette members, in the order the settings name them (a page may not import the contract's values). */
const MEMBERS = ['primary', 'secondary', 'accent', 'link', 'body', 'surface', 'text', 'dimmed', 'border', 'navBackground', 'navText', 'navActiveBackground', 'navActiveText', 'headerBackground', 'headerText'] as const;
type Member = (typeof MEMBERS)[number];
type Chosen = Partial<Record<Member, string>>;

/** A colour picker needs #rrggbb; other forms (rgb(), names) are kept in the text field beside it. */
const pickable = (v: string) => (/^#[0-9a-f]{6}$/i.test(v) ? v : /^#[0-9a-f]{3}$/i.test(v) ? `#${[...v.slice(1)].map((c) => c + c).join('')}` : '#000000');

function PaletteFields({ legend, palette, chosen, onChange }: { legend: string; palette: Palette; chosen: Chosen; onChange(c: Chosen): void }) {
  const id = useId();
  return (
    <fieldset className="palette">
      <legend>{legend}</legend>
      {MEMBERS.map((m) => {
        const value = chosen[m] ?? '';
        const set = (v: string) => onChange({ ...chosen, [m]: v });
        return (
          <div className="palette-row" key={m}>
            <label htmlFor={`${id}-${m}`}>{m}</label>
            <input type="color" value={pickable(value || palette[m])} onChange={(e) => set(e.target.value)} aria-label={`${legend}: ${m}`} />
            <input id={`${id}-${m}`} value={value} placeholder={palette[m]} onChange={(e) => set(e.target.value)} spellCheck={false} />
          </div>
        );
      })}
    </fieldset>
  );
}

const compact = (c: Chosen) => Object.fromEntries(Object.entries(c).filter(([, v]) => v && v.trim() !== '').map(([k, v]) => [k, v!.trim()]));

/** The palettes, the font families and an extra stylesheet; what is left empty stays the judge's own. */
export function ThemeCard({ settings }: { settings: InstanceSettings }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const theme = settings.theme;
  // the server answers every member filled in: a custom theme is shown (and saved again) whole
  const [light, setLight] = useState<Chosen>(theme.custom ? { ...theme.light } : {});
  const [dark, setDark] = useState<Chosen>(theme.custom ? { ...theme.dark } : {});
  const [fontFamily, setFontFamily] = useState(theme.custom ? theme.fontFamily : '');
  const [headings, setHeadings] = useState(theme.custom && theme.fontFamilyHeadings !== theme.fontFamily ? theme.fontFamilyHeadings : '');
  const [sheet, setSheet] = useState<File | null>(null);
  const [said, setSaid] = useState('');
  const send = useFormSend();
  const onSave = send.submit(async () => {
    setSaid('');
    const fileId = sheet ? await uploadChosen(sheet, 'text/css') : theme.fileId;
    const body = {
      ...(Object.keys(compact(light)).length ? { light: compact(light) } : {}),
      ...(Object.keys(compact(dark)).length ? { dark: compact(dark) } : {}),
      ...(fontFamily.trim() ? { fontFamily: fontFamily.trim() } : {}),
      ...(headings.trim() ? { fontFamilyHeadings: headings.trim() } : {}),
      ...(fileId ? { fileId } : {}),
    };
    qc.setQueryData(keys.instance, await call(ops.setTheme, { body }));
    setSaid(t('staff.look.theme.saved'));
  });
  const onReset = send.submit(async () => {
    qc.setQueryData(keys.instance, await call(ops.resetTheme));
    setLight({});
    setDark({});
    setFontFamily('');
    setHeadings('');
    setSaid(t('staff.look.theme.own'));
  });
  return (
    <section className="card admin-card" id="look-theme" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('staff.look.theme')}</h2>
      <p className="muted">{t('staff.look.theme.help')}</p>
      <p>{theme.custom ? t('staff.look.theme.custom') : t('staff.look.theme.own')}</p>
      <form className="form admin-form" onSubmit={onSave}>
        <details className="palette-choice">
          <summary>{t('staff.look.theme.light')}</summary>
          <PaletteFields legend={t('staff.look.theme.light')} palette={theme.light} chosen={light} onChange={setLight} />
        </details>
        <details className="palette-choice">
          <summary>{t('staff.look.theme.dark')}</summary>
          <PaletteFields legend={t('staff.look.theme.dark')} palette={theme.dark} chosen={dark} onChange={setDark} />
        </details>
        <label htmlFor={`${id}-font`}>{t('staff.look.theme.fontFamily')}</label>
        <input id={`${id}-font`} value={fontFamily} placeholder={theme.fontFamily} onChange={(e) => setFontFamily(e.target.value)} aria-describedby={`${id}-font-help`} />
        <label htmlFor={`${id}-head`}>{t('staff.look.theme.fontFamilyHeadings')}</label>
        <input id={`${id}-head`} value={headings} placeholder={theme.fontFamilyHeadings} onChange={(e) => setHeadings(e.target.value)} aria-describedby={`${id}-font-help`} />
        <small id={`${id}-font-help`} className="muted">
          {t('staff.look.theme.fontHelp')}
        </small>
        <label htmlFor={`${id}-css`}>{t('staff.look.theme.stylesheet')}</label>
        <input id={`${id}-css`} type="file" accept=".css,text/css" onChange={(e) => setSheet(e.target.files?.[0] ?? null)} aria-describedby={theme.fileId ? `${id}-css-help` : undefined} />
        {theme.fileId && (
          <small id={`${id}-css-help`} className="muted">
            {t('staff.look.theme.stylesheetKept')}
          </small>
        )}
        {send.error !== null && <ErrorBox error={send.error} />}
        {said && (
          <p className="ok-box" role="status">
            {said}
          </p>
        )}
        <button type="submit" className="primary" disabled={send.busy}>
          {t('staff.look.theme.save')}
        </button>
      </form>
      <form className="form admin-form" onSubmit={onReset}>
        <button type="submit" disabled={send.busy || !theme.custom}>
          {t('staff.look.theme.reset')}
        </button>
      </form>
    </section>
  );
}
