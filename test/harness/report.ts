// Measured figures of the reliability tests, kept in .test-output/reliability.json (one key per test; what
// other tests wrote there is kept).
//
//   recordFigures('mixedOperations', { operations: 10000, lost: 0, … });
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
export const RELIABILITY_REPORT = path.join(ROOT, '.test-output', 'reliability.json');

export function recordFigures(key: string, figures: Record<string, unknown>, file = RELIABILITY_REPORT): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let all: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) all = parsed as Record<string, unknown>;
  } catch {
    /* absent or unreadable: start afresh */
  }
  all[key] = { ...figures, recordedAt: new Date().toISOString() };
  // Written aside and renamed, so a reader never sees half a file.
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(all, null, 2)}\n`);
  fs.renameSync(tmp, file);
}
