// What the comparison shows and exports, made from the client's experiment shapes: the summary of an
// experiment, the index (scores only), a row's contents (texts cut for the page), and the export files
// (every field in full). No vscode import: plain data in, plain data out.
import { CELL_TEXT_LIMIT, type CellContent, type Experiment, type IndexRow, type RowContent } from '../../protocol/compare';
import type { ExperimentRow, ExperimentRun, ExperimentSummary } from '../../experiments/types';

const SHORT = 2000;
const cut = (s: string, n = SHORT) => (s.length > n ? s.slice(0, n) : s);

/** A value as one text: a lone string field as it is, else JSON (pretty), '' for nothing. */
export function valueText(value: Record<string, unknown> | null | undefined): string {
  if (value === null || value === undefined) return '';
  const entries = Object.entries(value);
  if (entries.length === 1 && typeof entries[0]![1] === 'string') return entries[0]![1];
  return JSON.stringify(value, null, 2) ?? '';
}

function limited(text: string): { text: string; truncated: boolean } {
  return text.length > CELL_TEXT_LIMIT ? { text: text.slice(0, CELL_TEXT_LIMIT), truncated: true } : { text, truncated: false };
}

/** "prompt support-answer @ 1a2b3c4d · local-echo" from what the runner (or another tool) put in the metadata. */
export function sourceLine(metadata: Record<string, unknown>): string | null {
  const str = (k: string) => (typeof metadata[k] === 'string' && (metadata[k] as string).trim() ? (metadata[k] as string).trim() : null);
  const prompt = str('prompt') ?? str('prompt_file');
  const commit = str('prompt_commit');
  const model = str('model') ?? str('model_name') ?? str('ls_model_name');
  const parts = [prompt ? (commit ? `${prompt} @ ${commit.slice(0, 8)}` : prompt) : null, model].filter((p): p is string => !!p);
  if (!parts.length && str('revision_id')) parts.push(`revision ${str('revision_id')}`);
  return parts.length ? cut(parts.join(' · ')) : null;
}

export function experimentOf(s: ExperimentSummary, url: string | null): Experiment {
  const feedback: Experiment['feedback'] = {};
  for (const [key, f] of Object.entries(s.feedback)) feedback[key.slice(0, 180)] = { n: Math.max(0, Math.floor(f.n)), avg: f.avg };
  return {
    id: s.id,
    name: cut(s.name),
    createdAt: s.createdAt,
    runCount: Math.max(0, Math.floor(s.runCount)),
    errorRate: s.errorRate,
    latencyP50: s.latencyP50,
    latencyP99: s.latencyP99,
    totalTokens: s.totalTokens,
    totalCost: s.totalCost,
    feedback,
    source: sourceLine(s.metadata ?? {}),
    url: url ? cut(url) : null,
  };
}

/** Every feedback key the experiments have, in the order first seen. */
export function feedbackKeys(summaries: ExperimentSummary[]): string[] {
  const keys = new Set<string>();
  for (const s of summaries) for (const k of Object.keys(s.feedback)) if (k.length >= 1 && k.length <= 180) keys.add(k);
  return [...keys].slice(0, 100);
}

export function indexRow(row: ExperimentRow, experimentIds: string[]): IndexRow {
  const cells: IndexRow['cells'] = {};
  for (const id of experimentIds) {
    const run = row.runs[id];
    if (!run) {
      cells[id] = null;
      continue;
    }
    const scores: Record<string, number | null> = {};
    for (const [key, f] of Object.entries(run.feedback)) if (f.score !== null || f.value === null) scores[key] = f.score;
    cells[id] = { runId: run.id, error: run.error !== null, scores };
  }
  return { exampleId: row.exampleId, cells };
}

function cellOf(run: ExperimentRun): CellContent {
  const out = limited(valueText(run.outputs));
  const feedback: CellContent['feedback'] = {};
  for (const [key, f] of Object.entries(run.feedback)) {
    feedback[key] = { score: f.score, value: f.value === null ? null : cut(f.value), comment: f.comment === null ? null : cut(f.comment) };
  }
  return {
    runId: run.id,
    output: out.text,
    truncated: out.truncated,
    error: run.error === null ? null : cut(run.error),
    latencyMs: run.latencyMs,
    totalTokens: run.totalTokens,
    feedback,
  };
}

export function rowContent(row: ExperimentRow, experimentIds: string[]): RowContent {
  const cells: RowContent['cells'] = {};
  for (const id of experimentIds) {
    const run = row.runs[id];
    cells[id] = run ? cellOf(run) : null;
  }
  return {
    exampleId: row.exampleId,
    inputs: limited(valueText(row.example?.inputs ?? {})).text,
    reference: row.example?.outputs ? limited(valueText(row.example.outputs)).text : null,
    cells,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Export

export interface ExportColumns {
  /** The experiments in the file's order (the baseline first). */
  experiments: { id: string; name: string }[];
  keys: string[];
}

/** One CSV field: quoted when it holds a quote, a separator or a line break (RFC 4180). */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const s = String(value);
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

/** A header line and one line per example: inputs and reference as JSON, per experiment its output, error,
 *  latency and a score per key. */
export function csvOf(rows: ExperimentRow[], c: ExportColumns): string {
  const header = ['example_id', 'inputs', 'reference_outputs'];
  for (const e of c.experiments) header.push(`${e.name} output`, `${e.name} error`, `${e.name} latency_ms`, ...c.keys.map((k) => `${e.name} ${k}`));
  const lines = [header.map(csvField).join(',')];
  for (const row of rows) {
    const fields: (string | number | null)[] = [row.exampleId, json(row.example?.inputs), json(row.example?.outputs)];
    for (const e of c.experiments) {
      const run = row.runs[e.id];
      fields.push(run ? valueText(run.outputs) : null, run?.error ?? null, run?.latencyMs ?? null);
      for (const k of c.keys) {
        const f = run?.feedback[k];
        fields.push(f ? (f.score ?? f.value) : null);
      }
    }
    lines.push(fields.map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** One JSON object per example, with every field of the example and of each experiment's run. */
export function jsonlOf(rows: ExperimentRow[], c: ExportColumns & { baselineId: string; datasetId: string }): string {
  return rows
    .map((row) =>
      JSON.stringify({
        example_id: row.exampleId,
        dataset_id: c.datasetId,
        inputs: row.example?.inputs ?? null,
        reference_outputs: row.example?.outputs ?? null,
        metadata: row.example?.metadata ?? null,
        baseline_experiment_id: c.baselineId,
        experiments: c.experiments.map((e) => {
          const run = row.runs[e.id];
          return {
            experiment_id: e.id,
            experiment_name: e.name,
            run_id: run?.id ?? null,
            trace_id: run?.traceId ?? null,
            outputs: run?.outputs ?? null,
            error: run?.error ?? null,
            latency_ms: run?.latencyMs ?? null,
            total_tokens: run?.totalTokens ?? null,
            total_cost: run?.totalCost ?? null,
            feedback: run?.feedback ?? {},
          };
        }),
      }),
    )
    .map((l) => `${l}\n`)
    .join('');
}
