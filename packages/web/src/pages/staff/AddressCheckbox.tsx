import { useEffect, useState } from 'react';

/**
 * A filter switch kept in the page's address. It shows a click at once: the router renders the
 * address's change as a transition, and until it does a box bound to the address alone would still
 * show the old state.
 */
export function AddressCheckbox({ label, value, onChange }: { label: string; value: boolean; onChange(v: boolean): void }) {
  const [checked, setChecked] = useState(value);
  useEffect(() => setChecked(value), [value]);
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => {
          setChecked(e.target.checked);
          onChange(e.target.checked);
        }}
      />
      {label}
    </label>
  );
}
