// The experiment comparison panel: one per dataset and list of experiments. The host reads the experiments'
// summaries, the dataset, the ids of its examples and each experiment's root run per example with its scores
// only (one request per 1,000 examples) for the index the page marks and filters on its own, and the contents
// of the first rows, so the first screen paints from the ready answer. Further rows are read as they scroll in;
// the diff of two outputs opens in VS Code's diff editor; the export writes every field in full.
import * as vscode from 'vscode';
import { NotSignedInError } from '../../auth/clientService';
import type { LangSmithClient } from '../../client';
import { prompter } from '../../common/prompter';
import { safeFileName } from '../../common/fileNames';
import { Commands } from '../../constants';
import type { ExperimentRow, ExperimentSummary } from '../../experiments/types';
import {
  Act,
  CompareKey,
  CompareReady,
  Export,
  MAX_INDEXED,
  Reload,
  Rows,
  SetBaseline,
  type CompareState,
  type FeedbackKey,
  type IndexRow,
  type RowContent,
} from '../../protocol/compare';
import type { ParamsOf } from '../../protocol/messages';
import { RequestError } from '../../protocol/router';
import { setDraft } from '../../views/documents';
import type { PanelApp, PanelServices } from '../panels';
import { problemOf, reported } from '../reported';
import { csvOf, experimentOf, feedbackKeys, indexRow, jsonlOf, rowContent, valueText } from './compareData';
import { experimentRows, otherDatasetProblem, readExperiments } from '../../experiments/reads';

/** Rows whose contents come with the ready answer (the first screen and a little more). */
const FIRST_ROWS = 50;
/** Full rows kept for the page's scrolling back and for diffs. */
const ROWS_KEPT = 2000;

const baselineKey = (key: CompareKey) => `langsmith.compare.baseline/${key.datasetId}/${[...key.experimentIds].sort().join(',')}`;

export const compareApp: PanelApp<CompareKey, typeof CompareReady.result.shape.state> = {
  ready: CompareReady,
  parseKey: (raw) => {
    const key = CompareKey.safeParse(raw);
    return key.success ? key.data : undefined;
  },
  keyId: (key) => JSON.stringify([key.datasetId, ...key.experimentIds]),
  title: () => vscode.l10n.t('Compare Experiments'),
  open({ host, key, services, setTitle }) {
    const session = new CompareSession(services, key);
    const state = async (signal: AbortSignal) => {
      const t0 = Date.now();
      const before = await session.requestCount();
      const s = await session.state(signal);
      const requests = (await session.requestCount()) - before;
      services.log.info(`Compare: ${s.kind === 'compare' ? `${s.index.length} examples × ${s.experiments.length} experiments` : 'a problem'} read in ${Date.now() - t0} ms with ${requests} requests`);
      if (s.kind === 'compare') setTitle(vscode.l10n.t('Compare: {0}', s.dataset.name));
      return s;
    };
    host.router.onRequest(Reload, (_p, { signal }) => state(signal));
    host.router.onRequest(Rows, ({ exampleIds: ids }, { signal }) => reported(async () => ({ rows: await session.rows(ids, signal) })));
    host.router.onRequest(Act, (params, { signal }) => reported(() => session.act(params, signal)));
    host.router.onRequest(Export, (params, { signal }) => reported(() => session.export(params, signal)));
    host.router.onRequest(SetBaseline, ({ experimentId }) => reported(async () => (await session.setBaseline(experimentId), {})));
    return { state };
  },
};

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return /^\s*[[{]/.test(text);
  } catch {
    return false;
  }
}

export class CompareSession {
  private summaries: ExperimentSummary[] = [];
  private datasetName = '';
  /** The examples of the index, and which experiment each indexed run belongs to. */
  private readonly indexed = new Set<string>();
  private readonly runs = new Map<string, { experimentId: string; exampleId: string; traceId: string | null }>();
  /** Full rows, most recently used last. */
  private readonly full = new Map<string, ExperimentRow>();

  constructor(
    private readonly services: PanelServices,
    private readonly key: CompareKey,
  ) {}

  private call<T>(work: (c: LangSmithClient) => Promise<T>): Promise<T> {
    return this.services.clients.call(work);
  }

  /** The client's count of HTTP requests (0 when signed out), for the log line of a first paint. */
  async requestCount(): Promise<number> {
    return this.call(async (c) => c.http.stats.requests).catch(() => 0);
  }

  async state(signal: AbortSignal): Promise<CompareState> {
    const { datasetId, experimentIds } = this.key;
    try {
      const [dataset, summaries, indexed] = await Promise.all([
        this.call((c) => c.datasets.read({ datasetId, signal })),
        this.call((c) => readExperiments(c, experimentIds, signal)),
        // Every example with each experiment's scores: one request per 100 examples on v2.
        this.call((c) => c.experiments.index({ datasetId, experimentIds, limit: MAX_INDEXED, signal })),
      ]);
      const problem = otherDatasetProblem(datasetId, summaries);
      if (problem) return { kind: 'problem', problem: { code: 'failed', message: problem.slice(0, 2000) } };
      this.summaries = summaries;
      this.datasetName = dataset.name;
      const scores = indexed.rows;
      const first = scores.slice(0, FIRST_ROWS).map((r) => r.exampleId);
      const keys = feedbackKeys(summaries);
      const [configs, firstRows, links] = await Promise.all([
        keys.length ? this.call((c) => c.feedbackConfigs.read(keys, { signal })) : Promise.resolve(new Map()),
        first.length ? this.call((c) => experimentRows(c, { datasetId, experimentIds, exampleIds: first, scoresOnly: false, signal })) : Promise.resolve([]),
        this.links(signal),
      ]);
      this.indexed.clear();
      this.runs.clear();
      this.full.clear();
      const index: IndexRow[] = [];
      for (const row of scores) {
        if (this.indexed.has(row.exampleId)) continue;
        this.indexed.add(row.exampleId);
        for (const [experimentId, run] of Object.entries(row.runs)) if (run) this.runs.set(run.id, { experimentId, exampleId: row.exampleId, traceId: run.traceId });
        index.push(indexRow(row, experimentIds));
      }
      for (const row of firstRows) this.keep(row);
      // Which way is better: the workspace's feedback config, else what the evaluators file said (the runner's metadata).
      const lowerInFile = new Set(summaries.flatMap((s) => (Array.isArray(s.metadata['lower_is_better']) ? (s.metadata['lower_is_better'] as unknown[]) : [])));
      const feedback: FeedbackKey[] = keys.map((k) => {
        const configured = configs.get(k)?.is_lower_score_better;
        return { key: k, lowerIsBetter: typeof configured === 'boolean' ? configured : lowerInFile.has(k) };
      });
      return {
        kind: 'compare',
        dataset: { id: dataset.id, name: dataset.name.slice(0, 2000), url: links.dataset },
        experiments: summaries.map((s) => experimentOf(s, links.experiments.get(s.id) ?? null)),
        keys: feedback,
        baselineId: this.baseline((dataset as { baseline_experiment_id?: unknown }).baseline_experiment_id),
        index,
        indexTruncated: indexed.more,
        rows: firstRows.filter((r) => this.indexed.has(r.exampleId)).map((r) => rowContent(r, experimentIds)),
        mac: process.platform === 'darwin',
      };
    } catch (err) {
      if (signal.aborted) throw err;
      return { kind: 'problem', problem: problemOf(err, (detail) => vscode.l10n.t('The dataset or one of the experiments was not found. It may have been deleted. ({0})', detail)) };
    }
  }

  /** LangSmith pages of the dataset and the experiments; none when they cannot be made (no tenant known). */
  private async links(signal: AbortSignal): Promise<{ dataset: string | null; experiments: Map<string, string> }> {
    const experiments = new Map<string, string>();
    try {
      return await this.call(async (c) => {
        const dataset = await c.links.dataset({ datasetId: this.key.datasetId, signal });
        for (const id of this.key.experimentIds) experiments.set(id, await c.links.project({ projectId: id, signal }));
        return { dataset, experiments };
      });
    } catch (err) {
      if (signal.aborted || err instanceof NotSignedInError) throw err;
      this.services.log.warn(`Compare: no LangSmith links: ${String(err)}`);
      return { dataset: null, experiments };
    }
  }

  /** The remembered baseline, else the dataset's own, else the first experiment. */
  private baseline(datasetBaseline: unknown): string {
    const remembered = this.services.workspaceState.get<unknown>(baselineKey(this.key));
    if (typeof remembered === 'string' && this.key.experimentIds.includes(remembered)) return remembered;
    if (typeof datasetBaseline === 'string' && this.key.experimentIds.includes(datasetBaseline)) return datasetBaseline;
    return this.key.experimentIds[0]!;
  }

  async setBaseline(experimentId: string): Promise<void> {
    if (!this.key.experimentIds.includes(experimentId)) throw new RequestError('invalidParams', vscode.l10n.t('That experiment is not part of this comparison.'));
    await this.services.workspaceState.update(baselineKey(this.key), experimentId);
  }

  private keep(row: ExperimentRow): void {
    this.full.delete(row.exampleId);
    this.full.set(row.exampleId, row);
    while (this.full.size > ROWS_KEPT) this.full.delete(this.full.keys().next().value!);
  }

  /** Full rows of these examples (of the index only), from what is kept or read. */
  private async fullRows(ids: string[], signal: AbortSignal): Promise<Map<string, ExperimentRow>> {
    const out = new Map<string, ExperimentRow>();
    const missing: string[] = [];
    for (const id of ids) {
      if (!this.indexed.has(id)) continue;
      const kept = this.full.get(id);
      if (kept) out.set(id, kept);
      else missing.push(id);
    }
    if (missing.length) {
      const read = await this.call((c) => experimentRows(c, { datasetId: this.key.datasetId, experimentIds: this.key.experimentIds, exampleIds: missing, scoresOnly: false, signal }));
      for (const row of read) {
        out.set(row.exampleId, row);
        this.keep(row);
      }
    }
    return out;
  }

  async rows(ids: string[], signal: AbortSignal): Promise<RowContent[]> {
    const rows = await this.fullRows(ids, signal);
    return ids.flatMap((id) => {
      const row = rows.get(id);
      return row ? [rowContent(row, this.key.experimentIds)] : [];
    });
  }

  private nameOf(experimentId: string): string {
    return this.summaries.find((s) => s.id === experimentId)?.name ?? experimentId.slice(0, 8);
  }

  private experiment(id: string | undefined, what: string): string {
    if (!id) throw new RequestError('invalidParams', vscode.l10n.t('Which experiment {0}?', what));
    if (!this.key.experimentIds.includes(id)) throw new RequestError('invalidParams', vscode.l10n.t('That experiment is not part of this comparison.'));
    return id;
  }

  private example(id: string | undefined): string {
    if (!id) throw new RequestError('invalidParams', vscode.l10n.t('Which example?'));
    if (!this.indexed.has(id)) throw new RequestError('invalidParams', vscode.l10n.t('That example is not part of this comparison.'));
    return id;
  }

  async act(p: ParamsOf<typeof Act>, signal: AbortSignal): Promise<{ message: string | null }> {
    switch (p.action) {
      case 'diff': {
        const exampleId = this.example(p.exampleId);
        const left = this.experiment(p.experimentId, vscode.l10n.t('on the left'));
        const right = this.experiment(p.otherId, vscode.l10n.t('on the right'));
        const row = (await this.fullRows([exampleId], signal)).get(exampleId);
        const short = exampleId.slice(0, 8);
        const side = async (id: string) => {
          const run = row?.runs[id];
          const text = !run ? vscode.l10n.t('(no run of this experiment for this example)') : run.error !== null && !run.outputs ? `error: ${run.error}` : valueText(run.outputs);
          const uri = setDraft(`compare:${exampleId}:${id}`, `${this.nameOf(id)}-${short}`, text.endsWith('\n') ? text : `${text}\n`);
          // The documents are named .json; an answer in prose is shown as text, not checked as JSON.
          const doc = await vscode.workspace.openTextDocument(uri);
          if (!isJson(text) && doc.languageId !== 'plaintext') await vscode.languages.setTextDocumentLanguage(doc, 'plaintext');
          return uri;
        };
        const [l, r] = await Promise.all([side(left), side(right)]);
        await vscode.commands.executeCommand('vscode.diff', l, r, vscode.l10n.t('Example {0}: {1} ↔ {2}', short, this.nameOf(left), this.nameOf(right)), {
          preview: true,
          viewColumn: vscode.ViewColumn.Beside,
        });
        return { message: null };
      }
      case 'openExample': {
        const exampleId = this.example(p.exampleId);
        await vscode.commands.executeCommand(Commands.editExample, { datasetId: this.key.datasetId, exampleId });
        return { message: null };
      }
      case 'openTrace': {
        let runId = p.runId;
        if (!runId && p.exampleId && p.experimentId) {
          const row = (await this.fullRows([this.example(p.exampleId)], signal)).get(p.exampleId);
          runId = row?.runs[this.experiment(p.experimentId, '')]?.id;
        }
        const run = runId ? this.runs.get(runId) : undefined;
        if (!runId || !run) throw new RequestError('invalidParams', vscode.l10n.t('That run is not part of this comparison.'));
        await vscode.commands.executeCommand(Commands.openTrace, { runId, traceId: run.traceId ?? undefined, projectId: run.experimentId });
        return { message: null };
      }
      case 'openExperiment': {
        const id = this.experiment(p.experimentId, '');
        const url = await this.call((c) => c.links.project({ projectId: id, signal }));
        await vscode.env.openExternal(vscode.Uri.parse(url));
        return { message: null };
      }
      case 'openDataset': {
        const url = await this.call((c) => c.links.dataset({ datasetId: this.key.datasetId, signal }));
        await vscode.env.openExternal(vscode.Uri.parse(url));
        return { message: null };
      }
    }
  }

  async export(p: ParamsOf<typeof Export>, signal: AbortSignal): Promise<{ path: string | null; rows: number; message: string | null }> {
    const baselineId = this.experiment(p.baselineId, vscode.l10n.t('as the baseline'));
    const ids = p.exampleIds.filter((id) => this.indexed.has(id));
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const ext = p.format === 'csv' ? '.csv' : '.jsonl';
    const target = await prompter().saveFile({
      title: vscode.l10n.t('Export the comparison of {0} experiments on “{1}”', this.key.experimentIds.length, this.datasetName),
      saveLabel: vscode.l10n.t('Export'),
      defaultUri: folder ? vscode.Uri.joinPath(folder, safeFileName(`${this.datasetName}-comparison`, ext, 'comparison')) : undefined,
      filters: p.format === 'csv' ? { CSV: ['csv'] } : { [vscode.l10n.t('JSON Lines')]: ['jsonl'] },
    });
    if (!target) return { path: null, rows: 0, message: null };
    // Every field in full: read again (the kept rows are the same shape, but a large export should not evict them).
    const read = await this.call((c) => experimentRows(c, { datasetId: this.key.datasetId, experimentIds: this.key.experimentIds, exampleIds: ids, scoresOnly: false, signal }));
    const byId = new Map(read.map((r) => [r.exampleId, r]));
    const rows = ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    const order = [baselineId, ...this.key.experimentIds.filter((id) => id !== baselineId)];
    const columns = { experiments: order.map((id) => ({ id, name: this.nameOf(id) })), keys: feedbackKeys(this.summaries) };
    const text = p.format === 'csv' ? csvOf(rows, columns) : jsonlOf(rows, { ...columns, baselineId, datasetId: this.key.datasetId });
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    const where = target.scheme === 'file' ? target.fsPath : target.toString();
    const message = rows.length === 1 ? vscode.l10n.t('Exported 1 row to {0}', where) : vscode.l10n.t('Exported {0} rows to {1}', rows.length, where);
    return { path: where, rows: rows.length, message: message.slice(0, 2000) };
  }
}
