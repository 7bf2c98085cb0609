/**
 * A fingerprint as people compare it: the lowercase hex in groups of four, so that a reader can
 * hold their place between the screen and the machine's own output. Copying it yields the plain
 * hex (the spaces are only margins).
 */
export function Fingerprint({ value }: { value: string }) {
  const groups = value.match(/.{1,4}/g) ?? [value];
  return (
    <code className="fingerprint">
      {groups.map((g, i) => (
        <span key={i}>{g}</span>
      ))}
    </code>
  );
}
