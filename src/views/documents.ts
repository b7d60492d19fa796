// Read-only JSON documents of LangSmith objects under the `langsmith:` scheme: a run, an example, a prompt
// commit's manifest, a shared dataset. Opening one asks the API; nothing is written back.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';

export const SCHEME = 'langsmith';

type Kind = 'run' | 'example' | 'commit' | 'publicDataset' | 'similarExamples';

export function documentUri(kind: 'run' | 'example', id: string, label: string): vscode.Uri;
export function documentUri(kind: 'commit', identifier: string, label: string): vscode.Uri;
export function documentUri(kind: 'publicDataset', token: string, label: string): vscode.Uri;
/** `search` is JSON: {datasetId, inputs, limit}; the dataset must be indexed. */
export function documentUri(kind: 'similarExamples', search: string, label: string): vscode.Uri;
export function documentUri(kind: Kind, ref: string, label: string): vscode.Uri {
  // The label (a readable file name) is the path; what to fetch is in the query.
  const name = label.replace(/[\\/:*?"<>|\s]+/g, '-').slice(0, 60) || kind;
  return vscode.Uri.from({ scheme: SCHEME, path: `/${kind}/${name}.json`, query: new URLSearchParams({ kind, ref }).toString() });
}

export class LangSmithDocuments implements vscode.TextDocumentContentProvider {
  constructor(private readonly clients: ClientService) {}

  async provideTextDocumentContent(uri: vscode.Uri, token: vscode.CancellationToken): Promise<string> {
    const params = new URLSearchParams(uri.query);
    const kind = params.get('kind') as Kind | null;
    const ref = params.get('ref') ?? '';
    const abort = new AbortController();
    const sub = token.onCancellationRequested(() => abort.abort());
    const signal = abort.signal;
    try {
      const value = await this.clients.call(async (client) => {
        switch (kind) {
          case 'run':
            return client.runs.read(ref, { signal });
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
            throw new Error(`Unknown LangSmith document ${uri.toString()}`);
        }
      });
      return `${JSON.stringify(value, null, 2)}\n`;
    } finally {
      sub.dispose();
    }
  }
}

export async function showDocument(uri: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: true });
}
