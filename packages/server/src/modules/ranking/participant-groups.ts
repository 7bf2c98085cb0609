/**
 * A participant's groups and organisation come from their user tags (decisions §23): a tag
 * `org:NAME` names the organisation (a school, a university), every other tag is a group
 * (a class, a division). Group winners and the CLICS groups and organisations follow this.
 */
const ORG_PREFIX = 'org:';

/** The groups a participant's tags put them in, each once, in the tags' order. */
export function groupsOfTags(tags: readonly string[] | null | undefined): string[] {
  const out: string[] = [];
  for (const t of tags ?? []) {
    const tag = t.trim();
    if (tag && !tag.toLowerCase().startsWith(ORG_PREFIX) && !out.includes(tag)) out.push(tag);
  }
  return out;
}

/** The organisation a participant's tags name (the first `org:` tag), if any. */
export function organisationOfTags(tags: readonly string[] | null | undefined): string | undefined {
  for (const t of tags ?? []) {
    const tag = t.trim();
    if (tag.toLowerCase().startsWith(ORG_PREFIX)) {
      const name = tag.slice(ORG_PREFIX.length).trim();
      if (name) return name;
    }
  }
  return undefined;
}
