import type { InstanceSettings } from '@judge/contract';
import { ops } from '@judge/sdk/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { call, isProblem } from '../../../api/client';
import { keys } from '../../../api/keys';
import { ErrorBox, Loading } from '../../../components/Status';
import { useFormSend } from '../../../components/useFormSend';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { PermissionPicker } from '../roles/PermissionPicker';
import { usePermissionCatalogue } from '../roles/queries';
import '../roles/roles.css';

const sameSet = (a: readonly string[], b: ReadonlySet<string>) => a.length === b.size && a.every((k) => b.has(k));

/**
 * The permissions an account holds only with two-factor sign-in on (requireTwoFactorFor): the
 * catalogue as checkboxes, saved together. The server refuses a list that would take a permission
 * from the one saving it, who must turn it on for their own account first.
 */
export function RequireTwoFactor({ settings }: { settings: InstanceSettings }) {
  const t = useT();
  const id = useId();
  const qc = useQueryClient();
  const catalogue = usePermissionCatalogue();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(settings.requireTwoFactorFor));
  const [said, setSaid] = useState('');
  const send = useFormSend();
  const saved = settings.requireTwoFactorFor;
  const changed = !sameSet(saved, chosen);
  const toggle = (key: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(key);
    else next.delete(key);
    setChosen(next);
    setSaid('');
  };
  const onSubmit = send.submit(async () => {
    setSaid('');
    const order = (catalogue.data ?? []).map((p) => p.key);
    const list = [...chosen].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    const next = await call(ops.updateInstance, { body: { requireTwoFactorFor: list } });
    qc.setQueryData(keys.instance, next);
    void qc.invalidateQueries({ queryKey: keys.twoFactor });
    setChosen(new Set(next.requireTwoFactorFor));
    setSaid(next.requireTwoFactorFor.length ? t('staff.instance.twoFactor.saved', { list: next.requireTwoFactorFor.join(', ') }) : t('staff.instance.twoFactor.savedNone'));
  });
  const enableFirst = isProblem(send.error, 422, 'instance.twoFactor.enableFirst');
  return (
    <form className="form admin-form require-two-factor" onSubmit={onSubmit} aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('staff.instance.twoFactor.title')}</h3>
      <p className="muted field-help">{t('staff.instance.twoFactor.help')}</p>
      <p data-require-two-factor={saved.join(',')}>
        {t('staff.instance.twoFactor.now')}{' '}
        {saved.length ? (
          saved.map((k, i) => (
            <span key={k}>
              {i > 0 && ', '}
              <code>{k}</code>
            </span>
          ))
        ) : (
          <span className="muted">{t('staff.instance.twoFactor.none')}</span>
        )}
      </p>
      <details className="permission-choice">
        <summary>{t('staff.instance.twoFactor.choose')}</summary>
        {catalogue.isPending && <Loading />}
        {catalogue.isError && <ErrorBox error={catalogue.error} />}
        {catalogue.data && (
          <fieldset className="permission-fieldset">
            <legend className="visually-hidden">{t('staff.instance.twoFactor.title')}</legend>
            <PermissionPicker catalogue={catalogue.data} chosen={chosen} toggle={toggle} />
          </fieldset>
        )}
      </details>
      <div className="form-buttons-row">
        <button type="submit" disabled={send.busy || !changed}>
          {t('staff.instance.twoFactor.save')}
        </button>
        {changed && (
          <button type="button" onClick={() => setChosen(new Set(saved))}>
            {t('staff.instance.twoFactor.undo')}
          </button>
        )}
      </div>
      {enableFirst ? (
        <div className="error-box" role="alert">
          {t('staff.instance.twoFactor.enableFirst')} <Link to="/account#two-factor">{t('staff.instance.twoFactor.toAccount')}</Link>
        </div>
      ) : (
        send.error !== null && <ErrorBox error={send.error} />
      )}
      <p role="status">{said}</p>
      <JudgectlHint command="judgectl instance set requireTwoFactorFor system:administrator,user:update" />
    </form>
  );
}
