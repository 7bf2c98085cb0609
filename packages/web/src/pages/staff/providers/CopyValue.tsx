import { CopyButton } from '../../problem/CopyButton';

/**
 * One value to enter elsewhere (at a provider, in an LMS): its name, the value as code, and a Copy
 * button named after it, as a row of a `<dl className="copy-values">`.
 */
export function CopyValue({ label, value, copyLabel, name }: { label: string; value: string; copyLabel: string; name?: string }) {
  return (
    <div className="copy-value" data-value={name}>
      <dt>{label}</dt>
      <dd>
        <code>{value}</code>
        <CopyButton text={value} label={copyLabel} />
      </dd>
    </div>
  );
}
