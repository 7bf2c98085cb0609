import { ops } from '@judge/sdk/browser';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { call } from '../../../api/client';
import { ErrorBox, Loading } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';

/** Access keys by name; a value goes in here and never comes back out to this page. */
export function KeysCard() {
  const t = useT();
  const id = useId();
  const list = useQuery({ queryKey: ['instance-access-keys'], queryFn: () => call(ops.listAccessKeys) });
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [expires, setExpires] = useState('');
  const send = useFormSend();
  const write = async (key: string, body: { value: string; expiresAt?: string }) => {
    await call(ops.setAccessKey, { params: { name: key }, body });
    await list.refetch();
  };
  const onSave = send.submit(async () => {
    await write(name.trim().toLowerCase(), { value, ...(expires ? { expiresAt: new Date(expires).toISOString() } : {}) });
    setName('');
    setValue('');
    setExpires('');
  });
  const remove = (key: string) => send.submit(() => write(key, { value: '' }));
  return (
    <section className="card admin-card" id="look-keys" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('staff.look.keys')}</h2>
      <p className="muted">{t('staff.look.keys.help')}</p>
      {list.isPending && <Loading />}
      {list.isError && <ErrorBox error={list.error} />}
      {list.data?.length === 0 && <p>{t('staff.look.keys.none')}</p>}
      <ul className="key-list">
        {list.data?.map((k) => (
          <li key={k.name}>
            <span>
              <code>{k.name}</code> · {t('staff.look.keys.updated', { date: k.updatedAt.slice(0, 16).replace('T', ' ') })}
              {k.expiresAt && <> · {t('staff.look.keys.expires', { date: k.expiresAt.slice(0, 16).replace('T', ' ') })}</>}
            </span>
            <form onSubmit={remove(k.name)}>
              <button type="submit" className="link-button" disabled={send.busy}>
                {t('staff.look.keys.remove', { name: k.name })}
              </button>
            </form>
          </li>
        ))}
      </ul>
      <form className="form admin-form" onSubmit={onSave} autoComplete="off">
        <label htmlFor={`${id}-name`}>{t('staff.look.keys.name')}</label>
        <input id={`${id}-name`} value={name} required maxLength={64} pattern="[A-Za-z0-9][A-Za-z0-9._\-]*" onChange={(e) => setName(e.target.value)} />
        <label htmlFor={`${id}-value`}>{t('staff.look.keys.value')}</label>
        <input id={`${id}-value`} type="password" value={value} required maxLength={4096} autoComplete="new-password" onChange={(e) => setValue(e.target.value)} />
        <label htmlFor={`${id}-exp`}>{t('staff.look.keys.expiresAt')}</label>
        <input id={`${id}-exp`} type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} />
        {send.error !== null && <ErrorBox error={send.error} />}
        <button type="submit" className="primary" disabled={!name.trim() || !value || send.busy}>
          {t('staff.look.keys.save')}
        </button>
      </form>
    </section>
  );
}
