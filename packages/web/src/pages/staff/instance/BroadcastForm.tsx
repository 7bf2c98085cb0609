import type { SystemMessageType } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { ErrorBox } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import type { MessageKey } from '../../../i18n/catalogue';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';

const TYPES: { type: SystemMessageType; label: MessageKey }[] = [
  { type: 'info', label: 'staff.broadcast.type.info' },
  { type: 'success', label: 'staff.broadcast.type.success' },
  { type: 'warning', label: 'staff.broadcast.type.warning' },
  { type: 'error', label: 'staff.broadcast.type.error' },
];

/** A message to every signed-in session now (systemMessage); the text stays if the server refuses. */
export function BroadcastForm() {
  const t = useT();
  const id = useId();
  const [type, setType] = useState<SystemMessageType>('info');
  const [text, setText] = useState('');
  const [said, setSaid] = useState('');
  const send = useFormSend();
  const onSubmit = send.submit(async () => {
    setSaid('');
    await call(ops.sendSystemMessage, { body: { type, text: text.trim() } });
    setSaid(t('staff.broadcast.sent', { text: text.trim() }));
    setText('');
  });
  return (
    <section className="card admin-card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('staff.broadcast.title')}</h2>
      <p className="muted">{t('staff.broadcast.help')}</p>
      <form className="form admin-form" onSubmit={onSubmit}>
        <label htmlFor={`${id}-type`}>
          {t('staff.broadcast.type')}
          <select id={`${id}-type`} value={type} onChange={(e) => setType(e.target.value as SystemMessageType)}>
            {TYPES.map((x) => (
              <option key={x.type} value={x.type}>
                {t(x.label)}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={`${id}-text`}>
          {t('staff.broadcast.text')}
          <textarea id={`${id}-text`} rows={3} maxLength={2000} value={text} required onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={send.busy || !text.trim()}>
          {t('staff.broadcast.send')}
        </button>
        {send.error !== null && <ErrorBox error={send.error} />}
        <p role="status">{said}</p>
      </form>
      <JudgectlHint command="judgectl broadcast --type info <text>" />
    </section>
  );
}
