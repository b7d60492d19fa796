// Experiments: run a prompt over a dataset with the dataset's evaluators (an experiment tied to the dataset, as
// LangSmith's own are), compare experiments of one dataset in the comparison panel, and save a comparison as a
// comparative-experiment record.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import { resolveModelEndpoint } from '../auth/modelEndpoint';
import type { Dataset, LangSmithClient } from '../client';
import { prompter } from '../common/prompter';
import { comparisonProblem, validateName } from '../common/validation';
import { Commands } from '../constants';
import type { EvaluatorSpec, ExperimentSummary, ModelChoice, RunOutcome } from '../experiments/types';
import { evaluatorsFor } from '../prompts/evaluatorsDiagnostics';
import { editablePromptFileUri, parsePromptDocument, promptFormat } from '../prompts/promptFiles';
import { isPromptFile } from '../promptFile/fileNames';
import type { PlaygroundKey } from '../protocol/playground';
import { DatasetNode } from '../views/datasetsView';
import { ProjectNode } from '../views/projectsView';
import { CommitNode, PromptNode } from '../views/promptsView';
import { Panels } from '../webviews/descriptors';
import type { PanelFrame } from '../webviews/panels';
import { datasetExperiments, otherDatasetProblem, readExperiments } from '../experiments/reads';
import type { CommandRegistrar } from './registerCommand';
import { UserCancelled } from './registerCommand';
import { ask, choose, selection, withProgress } from './ui';
import { lazy } from '../common/lazy';

const MAX_NAME = 200;
const DEFAULT_CONCURRENCY = 4;
/** As the runner takes (its MAX_CONCURRENCY). */
const MAX_CONCURRENCY = 32;
/** Examples read to learn the dataset's input fields. */
const FIELD_SAMPLE = 20;

export interface ExperimentServices {
  clients: ClientService;
  panels: PanelFrame;
  secrets: vscode.SecretStorage;
  workspaceState: vscode.Memento;
}

export function registerExperimentCommands(register: CommandRegistrar, s: ExperimentServices): void {
  const { clients, panels } = s;

  register(Commands.compareExperiments, async (clicked, selected) => {
    const projects = selection(clicked, selected, (n): n is ProjectNode => n instanceof ProjectNode).map((n) => n.project);
    // Checked before anything is asked or sent.
    const problem = comparisonProblem(projects.map((p) => ({ name: p.name ?? p.id, referenceDatasetId: p.reference_dataset_id })));
    if (problem) throw new Error(problem);
    await openComparison(panels, projects[0]!.reference_dataset_id!, projects.map((p) => p.id));
  });

  register(Commands.saveComparison, async (clicked, selected) => {
    const projects = selection(clicked, selected, (n): n is ProjectNode => n instanceof ProjectNode).map((n) => n.project);
    const problem = comparisonProblem(projects.map((p) => ({ name: p.name ?? p.id, referenceDatasetId: p.reference_dataset_id })));
    if (problem) throw new Error(problem);
    const title = vscode.l10n.t('Save a comparison of {0} experiments', projects.length);
    const name = await ask({
      title,
      prompt: vscode.l10n.t('Name of the comparison'),
      value: defaultName(projects.map((p) => p.name ?? p.id.slice(0, 8))),
      validateInput: validateName('comparison'),
    });
    const description = await ask({ title, prompt: vscode.l10n.t('Description (optional)') });
    const comparison = await clients.call((c) =>
      c.comparativeExperiments.create({
        name,
        experimentIds: projects.map((p) => p.id),
        referenceDatasetId: projects[0].reference_dataset_id ?? undefined,
        description: description || undefined,
      }),
    );
    void vscode.window.showInformationMessage(vscode.l10n.t('Created the comparison “{0}” of {1} experiments.', comparison.name ?? name, projects.length));
  });

  register(Commands.compareDatasetExperiments, async (arg) => {
    const dataset = arg instanceof DatasetNode ? arg.dataset : await pickDataset(clients, vscode.l10n.t('Compare experiments of a dataset'));
    const experiments = await clients.call((c) => datasetExperiments(c, dataset.id));
    if (!experiments.length) throw new Error(vscode.l10n.t('“{0}” has no experiments yet: run a prompt over it first (Run Prompt over Dataset… on a prompt file).', dataset.name));
    const picked = await prompter().pickMany(
      experiments.map((e, i) => ({ label: e.name, description: experimentLine(e), picked: i < 2, id: e.id })),
      { title: vscode.l10n.t('Compare experiments of “{0}” (newest first)', dataset.name), placeholder: vscode.l10n.t('Choose one or more experiments') },
    );
    if (!picked?.length) throw new UserCancelled();
    await openComparison(panels, dataset.id, picked.slice(0, 10).map((p) => p.id));
  });

  register(Commands.runPromptOverDataset, (arg) => runPromptOverDataset(s, arg));
}

/** Opens the comparison; experiments of another dataset are refused before the panel opens. */
export async function openComparison(panels: PanelFrame, datasetId: string, experimentIds: string[], checked?: ExperimentSummary[]): Promise<void> {
  if (checked) {
    const problem = otherDatasetProblem(datasetId, checked);
    if (problem) throw new Error(problem);
  }
  await panels.show(Panels.compare, { datasetId, experimentIds }, vscode.ViewColumn.Active);
}

/** "a vs b vs c", shortened to fit a name. */
function defaultName(names: string[]): string {
  const joined = names.join(' vs ');
  return joined.length <= MAX_NAME ? joined : `${joined.slice(0, MAX_NAME - 1)}…`;
}

function experimentLine(e: ExperimentSummary): string {
  const when = e.createdAt ? new Date(e.createdAt).toLocaleString() : undefined;
  const scores = Object.entries(e.feedback)
    .filter(([, f]) => f.avg !== null)
    .slice(0, 3)
    .map(([k, f]) => `${k} ${f.avg!.toFixed(2)}`);
  return [when, vscode.l10n.t('{0} runs', e.runCount), ...scores].filter(Boolean).join(' · ');
}

async function pickDataset(clients: ClientService, title: string): Promise<Dataset> {
  type Item = vscode.QuickPickItem & { dataset: Dataset };
  const items = clients.call(async (c) => {
    const list: Item[] = [];
    for await (const d of c.datasets.list({ limit: 500 })) {
      list.push({ label: d.name, description: typeof d.example_count === 'number' ? vscode.l10n.t('{0} examples', d.example_count) : undefined, dataset: d });
    }
    return list;
  });
  return (await choose(items, { title, placeholder: vscode.l10n.t('Choose a dataset') })).dataset;
}

// ---------------------------------------------------------------------------------------------------------------
// Run Prompt over Dataset

interface PromptToRun {
  /** The prompt's name (`owner/name`, `name`, or the file's name). */
  name: string;
  commit: string | null;
  manifest: unknown;
  /** The prompt's own model settings. */
  model: { name?: string; temperature?: number; maxTokens?: number };
  /** What remembers the mapping: the file or the prompt. */
  memoryId: string;
  label: string;
  /** The prompt file, when it is one (its folder holds evaluators files too). */
  file?: vscode.Uri;
}

function ownModel(settings: Record<string, unknown> | undefined): PromptToRun['model'] {
  if (!settings) return {};
  const name = typeof settings['model'] === 'string' ? settings['model'] : typeof settings['model_name'] === 'string' ? settings['model_name'] : undefined;
  const t = settings['temperature'];
  const m = settings['max_tokens'] ?? settings['max_completion_tokens'];
  return {
    ...(name ? { name } : {}),
    ...(typeof t === 'number' && t >= 0 && t <= 2 ? { temperature: t } : {}),
    ...(typeof m === 'number' && Number.isInteger(m) && m >= 1 ? { maxTokens: m } : {}),
  };
}

/** A commit shown in the playground (its key), to run as a commit picked in the Prompts view is. */
interface PlaygroundCommit {
  identifier: string;
  commit: string;
}

/** What the active playground panel shows: its prompt file, or its commit; nothing when no playground is active. */
function activePlaygroundPrompt(panels: PanelFrame): vscode.Uri | PlaygroundCommit | undefined {
  const active = panels.panelsOf<PlaygroundKey>(Panels.playground).find((p) => p.host.panel.active);
  if (!active) return undefined;
  return active.key.kind === 'file' ? vscode.Uri.parse(active.key.uri) : { identifier: active.key.identifier, commit: active.key.commit };
}

function isPlaygroundCommit(arg: unknown): arg is PlaygroundCommit {
  return typeof arg === 'object' && arg !== null && typeof (arg as PlaygroundCommit).identifier === 'string' && typeof (arg as PlaygroundCommit).commit === 'string';
}

async function promptToRun(clients: ClientService, arg: unknown): Promise<PromptToRun> {
  const format = await promptFormat();
  if (arg instanceof CommitNode || arg instanceof PromptNode || isPlaygroundCommit(arg)) {
    const identifier = arg instanceof CommitNode ? arg.promptNode.identifier : arg.identifier;
    let commit = arg instanceof CommitNode ? arg.commit.commit_hash : isPlaygroundCommit(arg) ? arg.commit : undefined;
    if (!commit) {
      commit = await clients.call(async (c) => {
        for await (const k of c.prompts.listCommits(identifier, { limit: 1 })) return k.commit_hash;
        return undefined;
      });
      if (!commit) throw new Error(vscode.l10n.t('{0} has no commits yet: push one first.', identifier));
    }
    const pulled = await clients.call((c) => c.prompts.pull(`${identifier}:${commit}`, { includeModel: true }));
    const file = format.fromManifest(pulled.manifest, { identifier });
    const name = identifier.replace(/^-\//, '');
    return { name, commit, manifest: format.toManifest(file), model: ownModel(file.model?.settings), memoryId: `prompt:${name}`, label: `${name}@${commit.slice(0, 8)}` };
  }
  const raw = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  const uri = raw ? editablePromptFileUri(raw.toString()) : undefined;
  if (!uri || !isPromptFile(uri.path)) {
    throw new Error(vscode.l10n.t('Open a prompt file (*.prompt.yaml or *.prompt.json), or pick a commit in the Prompts view, to run it over a dataset.'));
  }
  const doc = await vscode.workspace.openTextDocument(uri);
  const parsed = await parsePromptDocument(doc);
  const error = parsed.problems.find((p) => p.severity === 'error');
  if (!parsed.file || error) {
    const where = error ? `${path.posix.basename(uri.path)}:${doc.positionAt(error.offset).line + 1}:${doc.positionAt(error.offset).character + 1}: ${error.message}` : path.posix.basename(uri.path);
    throw new Error(vscode.l10n.t('Fix the prompt file first: {0}', where));
  }
  const base = format.promptNameOfFile(uri.path);
  const name = (parsed.file.identifier ?? base).replace(/^-\//, '');
  return { name, commit: null, manifest: format.toManifest(parsed.file), model: ownModel(parsed.file.model?.settings), memoryId: `file:${uri.toString()}`, label: path.posix.basename(uri.path), file: uri };
}

function isPromptFileEditor(editor: vscode.TextEditor | undefined): boolean {
  const uri = editor ? editablePromptFileUri(editor.document.uri.toString()) : undefined;
  return !!uri && isPromptFile(uri.path);
}

async function pickSplit(clients: ClientService, dataset: Dataset): Promise<string | null> {
  const splits = clients.call((c) => c.datasets.listSplits({ datasetId: dataset.id })).catch(() => [] as string[]);
  const items = splits.then((list) => [
    { label: vscode.l10n.t('All examples'), split: null as string | null },
    ...[...list].sort().map((s) => ({ label: s, description: vscode.l10n.t('split'), split: s as string | null })),
  ]);
  if ((await splits).length === 0) return null;
  return (await choose(items, { title: vscode.l10n.t('Run over which examples of “{0}”?', dataset.name) })).split;
}

async function pickVersion(clients: ClientService, dataset: Dataset): Promise<string | null> {
  const tags = await clients
    .call(async (c) => {
      const out: { tag: string; asOf: string }[] = [];
      for await (const v of c.datasets.listVersions({ datasetId: dataset.id, limit: 100 })) for (const t of v.tags ?? []) out.push({ tag: t, asOf: v.as_of });
      return out;
    })
    .catch(() => []);
  if (!tags.length) return null;
  const items = [{ label: vscode.l10n.t('Latest'), description: vscode.l10n.t('the examples as they are now'), asOf: null as string | null }, ...tags.map((t) => ({ label: t.tag, description: new Date(t.asOf).toLocaleString(), asOf: t.tag as string | null }))];
  return (await choose(items, { title: vscode.l10n.t('Which version of “{0}”?', dataset.name) })).asOf;
}

async function pickModel(s: ExperimentServices, prompt: PromptToRun): Promise<ModelChoice> {
  const endpoint = await resolveModelEndpoint(s.secrets, await s.clients.connection.current());
  if (!endpoint.url) {
    throw new Error(vscode.l10n.t('No model endpoint is configured: set one with “LangSmith: Configure Playground Model”, then run again.'));
  }
  const names = [...new Set([prompt.model.name, endpoint.defaultModel].filter((n): n is string => !!n))];
  const picked = await choose(
    names.map((n) => ({ label: n, description: n === prompt.model.name ? vscode.l10n.t('the prompt’s model · {0}', endpoint.url!) : vscode.l10n.t('the playground’s model · {0}', endpoint.url!) })),
    { title: vscode.l10n.t('Run “{0}” on which model?', prompt.label) },
  );
  return {
    baseUrl: endpoint.url,
    apiKey: endpoint.apiKey,
    model: picked.label,
    temperature: prompt.model.temperature ?? null,
    maxTokens: prompt.model.maxTokens ?? null,
    fetch: await s.clients.networkFetch(),
  };
}

async function pickEvaluators(dataset: Dataset, near: vscode.Uri | undefined): Promise<EvaluatorSpec[]> {
  const found = await evaluatorsFor(dataset.name, near);
  if (found.kind === 'problem') throw new Error(vscode.l10n.t('The evaluators file of “{0}” has a problem: {1}', dataset.name, found.message));
  if (found.kind === 'none' || !found.file.evaluators.length) return [];
  const where = vscode.workspace.asRelativePath(found.uri, false);
  const picked = await prompter().pickMany(
    found.file.evaluators.map((e) => ({ label: e.key, description: e.key === e.type ? undefined : e.type, picked: true, spec: e })),
    { title: vscode.l10n.t('Evaluators from {0}', where), placeholder: vscode.l10n.t('Each writes a score on every run') },
  );
  if (picked === undefined) throw new UserCancelled();
  return picked.map((p) => p.spec);
}

async function pickConcurrency(): Promise<number> {
  const text = await ask({
    title: vscode.l10n.t('Concurrency'),
    prompt: vscode.l10n.t('Examples run at once (1–{0})', MAX_CONCURRENCY),
    value: String(DEFAULT_CONCURRENCY),
    validateInput: (v) => (/^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= MAX_CONCURRENCY ? undefined : vscode.l10n.t('A whole number from 1 to {0}.', MAX_CONCURRENCY)),
  });
  return Number(text);
}

/** The inputs of the dataset's first examples: where the prompt's variables are looked for. */
async function sampleInputs(client: LangSmithClient, datasetId: string, split: string | null, asOf: string | null): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const e of client.examples.list({ datasetId, splits: split ? [split] : undefined, asOf: asOf ?? undefined, limit: FIELD_SAMPLE, pageSize: FIELD_SAMPLE })) out.push(e.inputs ?? {});
  return out;
}

/** Prompt variables → input fields: the remembered ones, and a pick for each variable with no field of its name;
 *  a variable left without a field is named before any call. */
async function mapVariables(s: ExperimentServices, prompt: PromptToRun, dataset: Dataset, samples: Record<string, unknown>[]): Promise<Record<string, string>> {
  const { unmappedVariables } = await lazy.experiments();
  const memory = `langsmith.experiments.mapping/${prompt.memoryId}/${dataset.id}`;
  const remembered = s.workspaceState.get<Record<string, string>>(memory) ?? {};
  const mapping: Record<string, string> = {};
  // The remembered fields that still fill their variable.
  for (const [v, field] of Object.entries(remembered)) {
    if (typeof field === 'string' && !unmappedVariables(prompt.manifest, samples, { [v]: field }).some((u) => u.variable === v)) mapping[v] = field;
  }
  for (const u of unmappedVariables(prompt.manifest, samples, mapping)) {
    if (!u.fields.length) throw new Error(vscode.l10n.t('The prompt variable “{0}” has no input field of “{1}” to take its value from: its examples have no inputs.', u.variable, dataset.name));
    const picked = await prompter().pick(
      u.fields.map((f) => ({ label: f })),
      { title: vscode.l10n.t('The prompt variable “{0}” has no input field of that name in “{1}”: which field fills it?', u.variable, dataset.name) },
    );
    if (!picked) throw new Error(vscode.l10n.t('The prompt variable “{0}” is not mapped to an input field of “{1}”: nothing was run.', u.variable, dataset.name));
    mapping[u.variable] = picked.label;
  }
  const left = unmappedVariables(prompt.manifest, samples, mapping);
  if (left.length) throw new Error(vscode.l10n.t('The prompt variable “{0}” has no input field in “{1}” (fields: {2}): nothing was run.', left[0]!.variable, dataset.name, left[0]!.fields.join(', ') || '—'));
  await s.workspaceState.update(memory, { ...remembered, ...mapping });
  return mapping;
}

function progressLine(done: number, total: number, errored: number): string {
  const base = vscode.l10n.t('{0} of {1}', done, total);
  return errored === 0 ? base : errored === 1 ? `${base} · ${vscode.l10n.t('1 error')}` : `${base} · ${vscode.l10n.t('{0} errors', errored)}`;
}

async function runPromptOverDataset(s: ExperimentServices, arg: unknown): Promise<void> {
  const { clients } = s;
  // From the palette or the playground's title bar: the active prompt file editor, else the active playground's prompt.
  const fromPlayground = arg === undefined && !isPromptFileEditor(vscode.window.activeTextEditor) ? activePlaygroundPrompt(s.panels) : undefined;
  const prompt = await promptToRun(clients, fromPlayground ?? arg);
  const dataset = await pickDataset(clients, vscode.l10n.t('Run “{0}” over which dataset?', prompt.label));
  const split = await pickSplit(clients, dataset);
  const asOf = await pickVersion(clients, dataset);
  const model = await pickModel(s, prompt);
  const evaluators = await pickEvaluators(dataset, prompt.file);
  const concurrency = await pickConcurrency();
  const samples = await clients.call((c) => sampleInputs(c, dataset.id, split, asOf));
  if (!samples.length) throw new Error(vscode.l10n.t('“{0}” has no examples to run over.', dataset.name));
  const mapping = await mapVariables(s, prompt, dataset, samples);
  const engine = await lazy.experiments();
  const experimentName = engine.experimentName(prompt.name, new Date());
  const title = vscode.l10n.t('Running “{0}” over “{1}”', prompt.label, dataset.name);
  const outcome: RunOutcome = await withProgress(title, (signal, progress) => {
    let shown = 0;
    const running = clients.call((c) =>
      engine.runExperiment(c, {
        dataset: { id: dataset.id, name: dataset.name },
        split,
        asOf,
        experimentName,
        prompt: { name: prompt.name, commit: prompt.commit, manifest: prompt.manifest },
        mapping,
        model,
        evaluators,
        concurrency,
        signal,
        onProgress: (p) => {
          const increment = p.total ? ((p.done - shown) / p.total) * 100 : 0;
          shown = p.done;
          progress.report({ message: progressLine(p.done, p.total, p.errored), increment });
        },
      }),
    );
    // The experiment is a new project with runs (kept when the run stops or fails part-way): the Projects view
    // lists it, without a Refresh.
    return running.finally(() => void vscode.commands.executeCommand(Commands.refreshProjects));
  });
  await afterRun(s, dataset, outcome);
}

async function afterRun(s: ExperimentServices, dataset: Dataset, outcome: RunOutcome): Promise<void> {
  const { experiment } = outcome;
  const parts = [progressLine(outcome.done, outcome.total, outcome.errored), outcome.feedback === 1 ? vscode.l10n.t('1 score') : vscode.l10n.t('{0} scores', outcome.feedback)];
  const message = outcome.cancelled
    ? vscode.l10n.t('Stopped “{0}”: {1}. The runs made so far are kept.', experiment.name, parts.join(' · '))
    : vscode.l10n.t('Experiment “{0}” done: {1}.', experiment.name, parts.join(' · '));
  const compare = vscode.l10n.t('Compare');
  const open = vscode.l10n.t('Open in LangSmith');
  const choice = await vscode.window.showInformationMessage(message, ...(experiment.url ? [compare, open] : [compare]));
  if (choice === compare) await compareWithEarlier(s, dataset.id, experiment.id);
  else if (choice === open && experiment.url) await vscode.env.openExternal(vscode.Uri.parse(experiment.url));
}

/**
 * Opens the comparison of an experiment with the dataset's earlier ones (alone when none). The baseline is the
 * newest earlier experiment of the same prompt, else the newest sharing a feedback key, else the newest; the
 * other earlier experiments of the same prompt (up to two) come along.
 */
export async function compareWithEarlier(s: Pick<ExperimentServices, 'clients' | 'panels' | 'workspaceState'>, datasetId: string, experimentId: string): Promise<void> {
  const [all, [self]] = await s.clients.call((c) => Promise.all([datasetExperiments(c, datasetId), readExperiments(c, [experimentId])]));
  const created = self?.createdAt ?? Number.MAX_SAFE_INTEGER;
  const earlier = all.filter((e) => e.id !== experimentId && (e.createdAt ?? 0) <= created);
  const prompt = self?.metadata['prompt'];
  const samePrompt = earlier.filter((e) => typeof prompt === 'string' && e.metadata['prompt'] === prompt);
  const keys = new Set(Object.keys(self?.feedback ?? {}));
  const baseline = samePrompt[0] ?? earlier.find((e) => Object.keys(e.feedback).some((k) => keys.has(k))) ?? earlier[0];
  const ids = baseline ? [baseline.id, ...samePrompt.filter((e) => e.id !== baseline.id).slice(0, 2).map((e) => e.id), experimentId] : [experimentId];
  await openComparison(s.panels, datasetId, ids);
}
