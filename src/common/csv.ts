// The CSV header of a file to upload as a dataset. No `vscode` import (unit-tested in Node). A bundle of its own
// in the extension (see esbuild.mjs): the CSV parser is loaded only when a CSV file is chosen.
import { parse } from 'csv-parse/sync';

/**
 * The column names of the CSV's first record, as written (the server matches them exactly: " b" of "a, b" is
 * not "b"); names of blanks alone are left out. Throws a readable error for an empty file or a header with no names.
 */
export function csvHeader(text: string, fileName = 'The file'): string[] {
  let rows: string[][];
  try {
    // The first record (not the first line: blank lines before it are skipped, a quoted name may span lines).
    rows = parse(text, { to: 1, bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
  } catch (err) {
    throw new Error(`${fileName} is not valid CSV: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const columns = (rows[0] ?? []).filter((c) => c.trim() !== '');
  if (!columns.length) throw new Error(`${fileName} is empty or has no header row: the first line must name the columns.`);
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c)) throw new Error(`${fileName} names the column “${c}” twice; column names must be unique.`);
    seen.add(c);
  }
  return columns;
}
