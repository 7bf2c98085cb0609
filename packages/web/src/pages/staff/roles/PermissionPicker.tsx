import { useI18n } from '../../../i18n/I18n';
import { groupLabel, groupPermissions, type PermissionInfo } from './model';

/**
 * The permission catalogue as checkboxes, one fieldset per group, each key with its description
 * (the server's words, in English) and whether it has effect only system-wide.
 */
export function PermissionPicker({ catalogue, chosen, toggle }: { catalogue: readonly PermissionInfo[]; chosen: ReadonlySet<string>; toggle(key: string, on: boolean): void }) {
  const { t, lang } = useI18n();
  return (
    <div className="permission-groups">
      {groupPermissions(catalogue).map(({ group, entries }) => {
        const label = groupLabel(group);
        return (
          <fieldset key={group} className="permission-group" data-group={group}>
            <legend>{label ? t(label) : group}</legend>
            {entries.map((p) => (
              <label key={p.key} className="permission">
                <input type="checkbox" checked={chosen.has(p.key)} onChange={(e) => toggle(p.key, e.target.checked)} />
                <span>
                  <code>{p.key}</code>{' '}
                  <span className="muted" lang={lang === 'en' ? undefined : 'en'}>
                    {p.description}
                  </span>
                  {p.scope === 'system' && <span className="badge scope">{t('staff.roles.systemScope')}</span>}
                </span>
              </label>
            ))}
          </fieldset>
        );
      })}
    </div>
  );
}
