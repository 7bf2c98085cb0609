import { Labelled } from '../../../components/Labelled';
import { useT } from '../../../i18n/I18n';
import type { SecretDraft } from './draft';

interface Props {
  /** client: the OpenID client secret; deletion: the deletion channel's secret. */
  kind: 'client' | 'deletion';
  /** Whether the provider has one stored (hasClientSecret / hasDeletionSecret); false for a new provider. */
  stored: boolean;
  value: SecretDraft;
  onChange(v: SecretDraft): void;
  errors?: string[] | undefined;
}

/**
 * A write-only secret: never shown, only replaced. With one stored the field says so; left empty
 * it keeps the stored one, and "remove" sends '' to delete it.
 */
export function SecretField({ kind, stored, value, onChange, errors }: Props) {
  const t = useT();
  const client = kind === 'client';
  const label = stored ? t(client ? 'staff.providers.clientSecret.new' : 'staff.providers.deletionSecret.new') : t(client ? 'staff.providers.clientSecret' : 'staff.providers.deletionSecret');
  const hint = stored ? t('staff.providers.secret.keep') : t(client ? 'staff.providers.clientSecret.none' : 'staff.providers.deletionSecret.none');
  return (
    <div className="secret-field" data-secret={kind}>
      {stored && (
        <p className="secret-stored" data-secret-stored={kind}>
          {t(value.remove ? 'staff.providers.secret.removing' : 'staff.providers.secret.stored')}
        </p>
      )}
      <Labelled label={label} hint={hint} errors={errors}>
        {(c) => (
          <input
            {...c}
            type="password"
            autoComplete="new-password"
            maxLength={512}
            value={value.value}
            disabled={value.remove}
            onChange={(e) => onChange({ value: e.target.value, remove: false })}
          />
        )}
      </Labelled>
      {stored && (
        <Labelled label={t(client ? 'staff.providers.clientSecret.remove' : 'staff.providers.deletionSecret.remove')} check>
          {(c) => <input {...c} type="checkbox" checked={value.remove} onChange={(e) => onChange({ value: '', remove: e.target.checked })} />}
        </Labelled>
      )}
    </div>
  );
}
