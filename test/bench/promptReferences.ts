/**
 * `npm run bench:refs`: finding prompt references (src/promptReferences/finder.ts) in a 5,000-line source file,
 * TypeScript and Python, as the editor does on every change of a file it shows (before its debounced lookups).
 *
 *   find    one call of findPromptReferences over the whole text: median and 95th percentile of BENCH_RUNS
 *           calls after BENCH_WARMUP unmeasured ones; goal ≤ 20 ms each
 *
 * The files are generated, the same every run: code of the usual shapes (imports, functions, classes, JSX in
 * the TypeScript one, comments and docstrings, strings with quotes of every kind, template literals with
 * substitutions, regular expressions, f-strings) with a prompt pull every 25 lines, half of them with a tag
 * or a commit, some inside comments and strings (which are no references).
 *
 * Options: BENCH_RUNS=200 · BENCH_WARMUP=20 · BENCH_LINES=5000 · --help
 */
import fs from 'node:fs';
import { findPromptReferences, type SourceLanguage } from '../../src/promptReferences/finder';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 200);
const WARMUP = Number(process.env['BENCH_WARMUP'] ?? 20);
const LINES = Number(process.env['BENCH_LINES'] ?? 5000);
const GOAL_MS = 20;

const log = (s: string) => process.stdout.write(`${s}\n`);

const TS_BLOCK = (i: number) => [
  `// Step ${i}: load the prompt and run it; client.pullPrompt("commented-${i}") is no reference.`,
  `import { helper${i} } from './helpers/helper${i}';`,
  `/** Summarizes ticket ${i}: it's the "fast" path, with \`quotes\` of every kind. */`,
  `export async function step${i}(client: Client, input: Record<string, string>): Promise<string> {`,
  `  const prompt = await client.pullPrompt${i % 3 === 0 ? '<ChatPromptTemplate>' : ''}("demo-prompt-${i % 40}${i % 2 ? `:${i % 4 === 1 ? 'production' : 'a1b2c3d4'}` : ''}");`,
  `  const label = \`step \${i} of \${input['total'] ?? "many"} — \${helper${i}(input)}\`;`,
  `  const clean = input.text.replace(/["'\\\`]+/g, '').split(/\\s+/).filter(Boolean);`,
  `  const ratio = clean.length / 2 + ${i} * 0.5;`,
  `  if (ratio > 10 && label.includes("it's")) console.log('long input', { ratio, label });`,
  `  const view = <section className="step"><h2>{label}</h2><p>Don't pullPrompt("jsx-text") here</p></section>;`,
  `  /* a block comment with hub.pull("in-a-block-comment") and a stray ' quote */`,
  `  const other = await hub.pull('acme/shared-prompt-${i % 7}');`,
  `  const s = "client.pullPrompt('inside-a-string')";`,
  `  const m = new Map<string, number>([["a", 1], ["b", 2]]);`,
  `  for (const [k, v] of m) if (v > 1) { console.debug(k, v); }`,
  `  const result = await prompt.pipe(model).invoke({ ...input, label, view, other, s });`,
  `  return typeof result === 'string' ? result : JSON.stringify(result);`,
  `}`,
  `export class Worker${i} extends Base {`,
  `  private readonly cache = new Map<string, Promise<unknown>>();`,
  `  constructor(private readonly client: Client) { super(); }`,
  `  run(name: string) { return this.cache.get(name) ?? this.client.pullPromptCommit(name); }`,
  `}`,
  ``,
  ``,
];

const PY_BLOCK = (i: number) => [
  `# Step ${i}: load the prompt and run it; client.pull_prompt("commented-${i}") is no reference.`,
  `from .helpers import helper_${i}`,
  ``,
  `def step_${i}(client: Client, inputs: dict[str, str]) -> str:`,
  `    """Summarizes ticket ${i}: it's the "fast" path; client.pull_prompt("in-a-docstring") is text."""`,
  `    prompt = client.pull_prompt("demo-prompt-${i % 40}${i % 2 ? `:${i % 4 === 1 ? 'production' : 'a1b2c3d4'}` : ''}", include_model=${i % 2 ? 'True' : 'False'})`,
  `    label = f"step {${i}} of {inputs.get('total', 'many')} — {helper_${i}(inputs)}"`,
  `    clean = [w for w in re.split(r"\\s+", inputs["text"]) if w]`,
  `    ratio = len(clean) / 2 + ${i} * 0.5`,
  `    if ratio > 10 and "it's" in label:`,
  `        print('long input', {"ratio": ratio, "label": label})`,
  `    other = hub.pull(owner_repo_commit='acme/shared-prompt-${i % 7}')`,
  `    s = "client.pull_prompt('inside-a-string')"`,
  `    raw = r'C:\\path\\to\\file'`,
  `    data = b"bytes \\x00"`,
  `    result = (prompt | model).invoke({**inputs, "label": label, "other": other, "s": s, "raw": raw})`,
  `    return result if isinstance(result, str) else json.dumps(result)`,
  ``,
  `class Worker${i}(Base):`,
  `    def __init__(self, client: Client) -> None:`,
  `        self.client = client`,
  `    def run(self, name: str):`,
  `        return self.client.pull_prompt_commit(name)`,
  ``,
  ``,
];

function sourceFile(block: (i: number) => string[], lines: number): string {
  const out: string[] = [];
  for (let i = 0; out.length < lines; i++) out.push(...block(i));
  return out.slice(0, lines).join('\n');
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * p) - 1)] ?? 0;
};

function measure(name: string, text: string, language: SourceLanguage): boolean {
  const found = findPromptReferences(text, language);
  for (let i = 0; i < WARMUP; i++) findPromptReferences(text, language);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    findPromptReferences(text, language);
    times.push(performance.now() - t0);
  }
  const median = percentile(times, 0.5);
  const p95 = percentile(times, 0.95);
  const ok = p95 <= GOAL_MS;
  log(`| ${name} (${text.split('\n').length.toLocaleString('en')} lines, ${(text.length / 1000).toFixed(0)} kB, ${found.length} references) | ${median.toFixed(2)} ms | ${p95.toFixed(2)} ms | ${Math.max(...times).toFixed(2)} ms | ≤ ${GOAL_MS} ms ${ok ? '✓' : '✗'} |`);
  return ok;
}

function main(): void {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    const text = fs.readFileSync(__filename, 'utf8');
    log(text.slice(text.indexOf('/**') + 3, text.indexOf('*/')).replace(/^ ?\* ?/gm, '').trim());
    return;
  }
  log(`Finding prompt references, ${RUNS} runs after ${WARMUP} warm-up ones, Node ${process.version}`);
  log('');
  log('| File | Median | p95 | Worst | Goal (p95) |');
  log('|---|---|---|---|---|');
  const ok = [measure('TypeScript', sourceFile(TS_BLOCK, LINES), 'javascript'), measure('Python', sourceFile(PY_BLOCK, LINES), 'python')].every(Boolean);
  if (!ok) process.exitCode = 1;
}

main();
