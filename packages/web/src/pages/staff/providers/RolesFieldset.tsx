import { useId } from 'react';
import { Labelled } from '../../../components/Labelled';
import { useT } from '../../../i18n/I18n';
import { TextField } from '../activities/fields';
import { useRoles } from '../roles/queries';
import { mappable, newRule, type ProviderDraft, type RuleDraft } from './draft';

type Set = (patch: Partial<ProviderDraft>) => void;
type Errors = Record<string, string[]>;

/** A role by name: chosen from the system roles, or typed where the reader may not list them. */
function RolePicker({ value, onChange, names, label, errors }: { value: string; onChange(v: string): void; names: string[] | undefined; label: string; errors?: string[] | undefined }) {
  const t = useT();
  const options = names && value && !names.includes(value) ? [value, ...names] : names;
  return (
    <Labelled label={label} errors={errors}>
      {(c) =>
        options ? (
          <select {...c} value={value} onChange={(e) => onChange(e.target.value)}>
            <option value="">{t('staff.providers.rule.chooseRole')}</option>
            {options.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        ) : (
          <input {...c} value={value} maxLength={64} onChange={(e) => onChange(e.target.value)} />
        )
      }
    </Labelled>
  );
}

function RuleRow({ rule, n, names, errors, change, remove }: { rule: RuleDraft; n: number; names: string[] | undefined; errors: Errors; change(r: RuleDraft): void; remove(): void }) {
  const t = useT();
  const at = `mappingRules.${n - 1}`;
  return (
    <li data-rule={n}>
      <div className="rule-row" role="group" aria-label={t('staff.providers.rule.n', { n })}>
        <TextField
          label={t('staff.providers.rule.value', { n })}
          value={rule.claimValue}
          maxLength={200}
          errors={errors[`${at}.claimValue`]}
          onChange={(v) => change({ ...rule, claimValue: v })}
        />
        <RolePicker label={t('staff.providers.rule.role', { n })} value={rule.templateName} names={names} errors={errors[`${at}.templateName`]} onChange={(v) => change({ ...rule, templateName: v })} />
        <button type="button" className="rule-remove" onClick={remove}>
          {t('staff.providers.rule.remove', { n })}
        </button>
      </div>
    </li>
  );
}

/** Roles from the provider: the claim the rules read, the rules, and what happens to an account none matches. */
export function RolesFieldset({ d, set, errors }: { d: ProviderDraft; set: Set; errors: Errors }) {
  const t = useT();
  const roles = useRoles(true);
  const names = roles.data ? mappable(roles.data) : undefined;
  const rules = d.mappingRules;
  const setRule = (i: number, r: RuleDraft) => set({ mappingRules: rules.map((x, j) => (j === i ? r : x)) });
  return (
    <fieldset>
      <legend>{t('staff.providers.roles')}</legend>
      <p className="muted field-help">{t('staff.providers.roles.intro')}</p>
      <TextField label={t('staff.providers.claimPath')} hint={t('staff.providers.claimPath.hint')} value={d.claimPath} maxLength={200} errors={errors.claimPath} onChange={(v) => set({ claimPath: v })} />
      <div className="rules">
        <p className="field-label">{t('staff.providers.rules')}</p>
        {rules.length === 0 && <p className="muted">{t('staff.providers.rules.none')}</p>}
        <ol className="rule-list">
          {rules.map((r, i) => (
            <RuleRow key={r.key} rule={r} n={i + 1} names={names} errors={errors} change={(x) => setRule(i, x)} remove={() => set({ mappingRules: rules.filter((_, j) => j !== i) })} />
          ))}
        </ol>
        {errors.mappingRules && (
          <p className="field-error">
            {errors.mappingRules.join(' ')}
          </p>
        )}
        <button type="button" onClick={() => set({ mappingRules: [...rules, newRule()] })} disabled={rules.length >= 100}>
          {t('staff.providers.rule.add')}
        </button>
      </div>
      <UnmappedChoice d={d} set={set} names={names} errors={errors} />
    </fieldset>
  );
}

function UnmappedChoice({ d, set, names, errors }: { d: ProviderDraft; set: Set; names: string[] | undefined; errors: Errors }) {
  const t = useT();
  const id = useId();
  return (
    <fieldset className="unmapped" data-unmapped={d.unmappedBehavior}>
      <legend>{t('staff.providers.unmapped')}</legend>
      <label className="check" htmlFor={`${id}-deny`}>
        <input id={`${id}-deny`} type="radio" name={`${id}-unmapped`} checked={d.unmappedBehavior === 'deny'} onChange={() => set({ unmappedBehavior: 'deny' })} />
        {t('staff.providers.unmapped.deny')}
      </label>
      <label className="check" htmlFor={`${id}-default`}>
        <input id={`${id}-default`} type="radio" name={`${id}-unmapped`} checked={d.unmappedBehavior === 'defaultTemplate'} onChange={() => set({ unmappedBehavior: 'defaultTemplate' })} />
        {t('staff.providers.unmapped.default')}
      </label>
      {d.unmappedBehavior === 'defaultTemplate' && (
        <RolePicker label={t('staff.providers.defaultRole')} value={d.defaultTemplateName} names={names} errors={errors.defaultTemplateName} onChange={(v) => set({ defaultTemplateName: v })} />
      )}
    </fieldset>
  );
}
