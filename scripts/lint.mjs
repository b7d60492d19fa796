// `npm run lint` (and the lint layer of `npm test`): ESLint over the whole project with eslint.config.mjs —
// typescript-eslint's rules and the one-way doors of ARCHITECTURE.md. Prints the problems and one summary line:
//   lint: N files, E errors, W warnings
// Exits 1 when there is an error (warnings are counted, not fatal).
//   node scripts/lint.mjs            the whole project
//   node scripts/lint.mjs --help     this text
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  const usage = fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3));
  console.log(usage.join('\n'));
  process.exit(0);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: root });
const results = await eslint.lintFiles(['.']);
const formatter = await eslint.loadFormatter('stylish');
const errors = results.reduce((n, r) => n + r.errorCount, 0);
const warnings = results.reduce((n, r) => n + r.warningCount, 0);
// Errors in full; warnings summarised by rule (they are known debts, listed in the editor).
const errorResults = results.filter((r) => r.errorCount > 0).map((r) => ({ ...r, messages: r.messages.filter((m) => m.severity === 2), warningCount: 0 }));
if (errorResults.length) console.log(await formatter.format(errorResults));
if (warnings) {
  const byRule = new Map();
  for (const r of results) for (const m of r.messages) if (m.severity === 1) byRule.set(m.ruleId, (byRule.get(m.ruleId) ?? 0) + 1);
  console.log(`warnings by rule: ${[...byRule].map(([rule, n]) => `${rule} ${n}`).join(', ')}`);
}
console.log(`lint: ${results.length} files, ${errors} errors, ${warnings} warnings`);
process.exit(errors ? 1 : 0);
