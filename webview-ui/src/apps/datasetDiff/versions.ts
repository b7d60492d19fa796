// A version's label as people read it: a tag as it is; a timestamp (what an untagged version is called) as a
// local date and time, "Nov 27, 2026, 12:12:14 PM", never ISO 8601.

export const isTimestamp = (label: string): boolean => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(label) && Number.isFinite(Date.parse(label));

export function readableVersion(label: string): string {
  if (!isTimestamp(label)) return label;
  return new Date(Date.parse(label)).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}
