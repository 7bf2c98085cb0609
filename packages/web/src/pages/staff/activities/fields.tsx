import { Labelled, type Described } from '../../../components/Labelled';

type Input = Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>;

export function TextField({ value, onChange, ...rest }: Described & Input & { value: string; onChange: (v: string) => void }) {
  const { label, hint, errors, ...input } = rest;
  return (
    <Labelled label={label} hint={hint} errors={errors}>
      {(c) => <input {...input} {...c} value={value} onChange={(e) => onChange(e.target.value)} />}
    </Labelled>
  );
}

export function TextArea({ value, onChange, rows = 4, ...d }: Described & { value: string; onChange: (v: string) => void; rows?: number }) {
  return (
    <Labelled {...d}>{(c) => <textarea {...c} rows={rows} value={value} onChange={(e) => onChange(e.target.value)} />}</Labelled>
  );
}

export function SelectField<V extends string>({ value, onChange, options, ...d }: Described & { value: V; onChange: (v: V) => void; options: { value: V; label: string }[] }) {
  return (
    <Labelled {...d}>
      {(c) => (
        <select {...c} value={value} onChange={(e) => onChange(e.target.value as V)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Labelled>
  );
}

export function CheckField({ checked, onChange, ...d }: Described & { checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <Labelled {...d} check>
      {(c) => <input type="checkbox" {...c} checked={checked} onChange={(e) => onChange(e.target.checked)} />}
    </Labelled>
  );
}

/** A date and time in the activity's zone (the zone is named in the label's hint). */
export function DateField({ value, onChange, ...d }: Described & { value: string; onChange: (v: string) => void }) {
  return (
    <Labelled {...d}>{(c) => <input type="datetime-local" {...c} value={value} onChange={(e) => onChange(e.target.value)} />}</Labelled>
  );
}
