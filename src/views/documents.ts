// Read-only JSON documents of LangSmith objects under the `langsmith:` scheme: a run, an example (now or as of a
// dataset version), a prompt commit's manifest, a shared dataset, and drafts the webviews hand over for a diff.
// Opening one asks the API; nothing is written back. What the native diff editor compares is two of these.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import { isNotFound } from '../client/errors';
import { safeFileName } from '../common/fileNames';
import { SCHEME } from '../constants';
import { lazy } from '../common/lazy';


type Kind = 'run' | 'example' | 'exampleVersion' | 'draft' | 'commit' | 'promptCommit' | 'publicDataset' | 'similarExamples';

/** A commit shown as a prompt file: `like` is a local prompt file whose layout (key order, comments) it follows. */
export interface PromptCommitRef {
  identifier: string;
  commit: string;
  like?: string;
}

/** What a run document reads: the run, and (when known) its project and start time, which v2 reads need. */
export interface RunDocumentRef {
  id: string;
  projectId?: string;
  startTime?: string;
}

/** A run document's ref: JSON of a {@link RunDocumentRef}, or a bare run id (documents opened before it). */
function parseRunRef(ref: string): RunDocumentRef {
  if (!ref.startsWith('{')) return { id: ref };
  const v = JSON.parse(ref) as Partial<RunDocumentRef>;
  if (typeof v.id !== 'string') throw new Error(vscode.l10n.t('This run document names no run.'));
  return {
    id: v.id,
    projectId: typeof v.projectId === 'string' ? v.projectId : undefined,
    startTime: typeof v.startTime === 'string' ? v.startTime : undefined,
  };
}

export function documentUri(kind: 'run' | 'example', id: string, label: string): vscode.Uri;
export function documentUri(kind: 'commit', identifier: string, label: string): vscode.Uri;
export function documentUri(kind: 'publicDataset', token: string, label: string): vscode.Uri;
/** `version` is JSON: {exampleId, asOf}; the example as it was at that dataset version (null when it did not exist). */
export function documentUri(kind: 'exampleVersion', version: string, label: string): vscode.Uri;
/** A draft's text held by the host (see setDraft): for a diff of what the user wrote against the server. */
export function documentUri(kind: 'draft', draftId: string, label: string): vscode.Uri;
/** `search` is JSON: {datasetId, inputs, limit}; the dataset must be indexed. */
export function documentUri(kind: 'similarExamples', search: string, label: string): vscode.Uri;
/** `ref` is JSON: a {@link PromptCommitRef}; the commit as a readable prompt file. */
export function documentUri(kind: 'promptCommit', ref: string, label: string): vscode.Uri;
export function documentUri(kind: Kind, ref: string, label: string): vscode.Uri {
  // The label (a readable file name) is the path; what to fetch is in the query. It comes from server names: no
  // separators, control or text-direction characters (a tab title must not pose as another file), whole characters.
  const name = Array.from(safeFileName(label, '', kind).replace(/\s+/g, '-')).slice(0, 60).join('') || kind;
  const ext = kind === 'promptCommit' ? '.prompt.yaml' : '.json';
  return vscode.Uri.from({ scheme: SCHEME, path: `/${kind}/${name}${ext}`, query: new URLSearchParams({ kind, ref }).toString() });
}

/** The document of a prompt commit (or tag, or 'latest') as a prompt file. */
export function promptCommitUri(ref: PromptCommitRef, label?: string): vscode.Uri {
  const name = ref.identifier.split('/').pop() ?? ref.identifier;
  return documentUri('promptCommit', JSON.stringify(ref), label ?? `${name}-${ref.commit.slice(0, 12)}`);
}

/** Drafts handed over by webviews, by id; their documents show this text. */
const drafts = new Map<string, string>();
const draftChanged = new vscode.EventEmitter<vscode.Uri>();

/** Holds a draft's text for its `draft` document (and refreshes an open one); returns the document's URI. */
export function setDraft(draftId: string, label: string, text: string): vscode.Uri {
  drafts.set(draftId, text);
  const uri = documentUri('draft', draftId, label);
  draftChanged.fire(uri);
  return uri;
}

/** Text of an example as the diff views show it: its user-facing fields, keys in a stable order. */
export function exampleText(example: Record<string, unknown> | null): string {
  if (!example) return 'null\n';
  const { id, dataset_id, inputs, outputs, metadata, split, attachments } = example as Record<string, unknown>;
  return `${JSON.stringify({ id, dataset_id, inputs, outputs, metadata, split, attachments: attachments ? Object.keys(attachments as object).sort() : undefined }, null, 2)}\n`;
}

export class LangSmithDocuments implements vscode.TextDocumentContentProvider {
  readonly onDidChange = draftChanged.event;

  constructor(private readonly clients: ClientService) {}

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const params = new URLSearchParams(uri.query);
    const kind = params.get('kind') as Kind | null;
    const ref = params.get('ref') ?? '';
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    const signal = abort.signal;
    if (kind === 'draft') return drafts.get(ref) ?? '';
    try {
      if (kind === 'promptCommit') return await this.promptCommitText(JSON.parse(ref) as PromptCommitRef, signal);
      if (kind === 'exampleVersion') {
        const { exampleId, asOf } = JSON.parse(ref) as { exampleId: string; asOf: string };
        const example = await this.clients.call((client) => client.examples.read(exampleId, { asOf, signal })).catch((err: unknown) => {
          if (isNotFound(err)) return null; // not in the dataset at that version
          throw err;
        });
        return exampleText(example as unknown as Record<string, unknown> | null);
      }
      const value = await this.clients.call(async (client) => {
        switch (kind) {
          case 'run': {
            const run = parseRunRef(ref);
            return client.runs.read(run.id, { projectId: run.projectId, startTime: run.startTime, signal });
          }
          case 'example':
            return client.examples.read(ref, { signal });
          case 'commit':
            return client.prompts.pull(ref, { includeModel: true, signal });
          case 'publicDataset': {
            const [dataset, examples] = await Promise.all([client.public.readDataset(ref, { signal }), client.public.listExamples(ref, { signal })]);
            return { dataset, examples };
          }
          case 'similarExamples': {
            const search = JSON.parse(ref) as { datasetId: string; inputs: Record<string, unknown>; limit: number };
            const examples = await client.datasets.similarExamples({ ...search, signal });
            return { dataset_id: search.datasetId, inputs: search.inputs, limit: search.limit, examples };
          }
          default:
            throw new Error(vscode.l10n.t('Unknown LangSmith document {0}', uri.toString()));
        }
      });
      return `${JSON.stringify(value, null, 2)}\n`;
    } finally {
      sub.dispose();
    }
  }

  private async promptCommitText(ref: PromptCommitRef, signal: AbortSignal): Promise<string> {
    const format = await lazy.promptFile();
    const { manifest, repo } = await this.clients.call(async (client) => {
      const [pulled, repo] = await Promise.all([client.prompts.pull(`${ref.identifier}:${ref.commit}`, { includeModel: true, signal }), client.prompts.get(ref.identifier, { signal })]);
      return { manifest: pulled.manifest, repo };
    });
    const meta = { identifier: ref.identifier.replace(/^-\//, ''), description: repo?.description, readme: repo?.readme, tags: repo?.tags, isPublic: repo?.is_public };
    if (ref.like) {
      // Follow the local file: its layout and comments, and only the attributes it sets, so the diff shows content.
      const local = await vscode.workspace.openTextDocument(vscode.Uri.parse(ref.like));
      const parsed = format.parsePromptFile(local.getText());
      if (parsed.file) {
        const f = parsed.file;
        const remote = format.fromManifest(manifest, {
          identifier: f.identifier ?? meta.identifier,
          description: f.description !== undefined ? meta.description ?? '' : undefined,
          readme: f.readme !== undefined ? meta.readme ?? '' : undefined,
          tags: f.tags !== undefined ? meta.tags ?? [] : undefined,
          isPublic: f.visibility !== undefined ? meta.isPublic : undefined,
        });
        if (f.tags !== undefined && !remote.tags) remote.tags = [];
        if (f.inputVariables === undefined) delete remote.inputVariables;
        return format.rewritePromptFile(local.getText(), remote);
      }
    }
    return format.manifestAsPromptFile(manifest, meta);
  }
}

export async function showDocument(uri: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: true });
}
