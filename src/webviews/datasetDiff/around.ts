// Where a changed value changes: both sides cut to the stretch around the change (no vscode here, so the
// component tests make their fixtures with it).
import type { FieldChange } from '../../protocol/datasetDiff';

export type Around = NonNullable<FieldChange['around']>;

/** Characters of the unchanged text kept on either side of a change. */
const CONTEXT = 80;
/** Characters of a changed stretch kept on each side (a long insertion is cut after this). */
const MAX_AROUND = 600;

/** Both texts from a little before their first difference to a little after their last (see FieldChange.around). */
export function around(a: string, b: string): Around {
  const shorter = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < shorter && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  // Start at a word boundary shortly before the change, unless the value starts there anyway.
  let offset = Math.max(0, prefix - CONTEXT);
  if (offset > 0) {
    const space = a.slice(offset, prefix).search(/\s/);
    if (space >= 0) offset += space + 1;
  }
  const cut = (text: string) => {
    const end = Math.min(text.length - suffix + CONTEXT, text.length, offset + MAX_AROUND);
    return { text: text.slice(offset, end), more: end < text.length };
  };
  const before = cut(a);
  const after = cut(b);
  return { offset, before: before.text, after: after.text, more: before.more || after.more };
}
