import type { LtiRegistration } from '@judge/contract';
import { ErrorBox, Loading } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { CopyValue } from '../providers/CopyValue';
import { useRegistration } from './queries';

/** A custom parameter's label by its name: activity= names the activity, problem= one of its problems. */
function parameterLabel(t: ReturnType<typeof useT>, parameter: string) {
  const name = parameter.split('=')[0];
  if (name === 'activity') return t('staff.lti.reg.customActivity');
  if (name === 'problem') return t('staff.lti.reg.customProblem');
  return t('staff.lti.reg.custom');
}

function Values({ r, name }: { r: LtiRegistration; name: string }) {
  const t = useT();
  const row = (key: 'toolUrl' | 'loginUrl' | 'redirectUri' | 'keySetUrl') => (
    <CopyValue name={key} label={t(`staff.lti.reg.${key}`)} value={r[key]} copyLabel={t('staff.lti.reg.copy', { what: t(`staff.lti.reg.${key}`), name })} />
  );
  return (
    <dl className="copy-values">
      {row('toolUrl')}
      {row('loginUrl')}
      {row('redirectUri')}
      {row('keySetUrl')}
      {r.customParameters.map((p) => (
        <CopyValue key={p} name={`custom-${p.split('=')[0]}`} label={parameterLabel(t, p)} value={p} copyLabel={t('staff.lti.reg.copy', { what: p, name })} />
      ))}
    </dl>
  );
}

/**
 * What to enter in the LMS for one platform (GET /lti/platforms/{id}/registration), each value with
 * a Copy button, and how a course link names its activity (decisions §21).
 */
export function Registration({ id, name }: { id: string; name: string }) {
  const t = useT();
  const r = useRegistration(id, true);
  return (
    <div className="registration" data-registration={id}>
      <p className="muted field-help">{t('staff.lti.reg.intro')}</p>
      {r.isPending && <Loading />}
      {r.isError && <ErrorBox error={r.error} />}
      {r.data && <Values r={r.data} name={name} />}
      <p>{t('staff.lti.reg.activity')}</p>
      <p className="muted field-help">{t('staff.lti.reg.placement')}</p>
    </div>
  );
}
