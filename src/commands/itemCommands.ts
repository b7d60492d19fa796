// Opening items as read-only JSON, copying ids, and links to the LangSmith web app.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import type { LangSmithClient } from '../client';
import { documentUri, promptCommitUri, showDocument } from '../views/documents';
import { DatasetNode, ExampleNode } from '../views/datasetsView';
import { ProjectNode, RunNode } from '../views/projectsView';
import { CommitNode, PromptNode } from '../views/promptsView';
import { QueueNode, QueueRunNode } from '../views/queuesView';
import { Commands } from '../constants';
import type { RunDocumentRef } from '../views/documents';
import type { CommandRegistrar } from './registerCommand';
import { selection } from './ui';

export function registerItemCommands(register: CommandRegistrar, clients: ClientService): void {
  register(Commands.openRun, async (node) => {
    const ref = runDocumentRef(node);
    if (!ref) throw new Error(vscode.l10n.t('Select a run to open.'));
    await showDocument(documentUri('run', JSON.stringify(ref.ref), `run-${ref.name}-${ref.ref.id.slice(0, 8)}`));
  });
  register(Commands.openExample, async (node) => {
    if (!(node instanceof ExampleNode)) throw new Error(vscode.l10n.t('Select an example to open.'));
    await showDocument(documentUri('example', node.example.id, `example-${node.example.id.slice(0, 8)}`));
  });
  register(Commands.openCommit, async (node) => {
    if (!(node instanceof CommitNode)) throw new Error(vscode.l10n.t('Select a prompt commit to open.'));
    // A commit reads as the prompt file it would pull into; the raw manifest is one command away.
    await showDocument(promptCommitUri({ identifier: node.promptNode.identifier, commit: node.commit.commit_hash }, `${node.promptNode.repo.repo_handle}-${node.commit.commit_hash.slice(0, 8)}`));
  });

  register(Commands.copyId, async (clicked, selected) => {
    const ids = selection(clicked, selected, isIdentified).map(idOf);
    if (!ids.length) throw new Error(vscode.l10n.t('Select an item whose id to copy.'));
    await vscode.env.clipboard.writeText(ids.join('\n'));
    vscode.window.setStatusBarMessage(ids.length === 1 ? vscode.l10n.t('Copied {0}', ids[0]!) : vscode.l10n.t('Copied {0} ids', ids.length), 3000);
  });

  register(Commands.openInLangSmith, async (node) => {
    const url = await clients.call((client) => webLink(client, node));
    await vscode.env.openExternal(vscode.Uri.parse(url));
  });
  register(Commands.copyLink, async (node) => {
    const url = await clients.call((client) => webLink(client, node));
    await vscode.env.clipboard.writeText(url);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied {0}', url), 3000);
  });
}

/** The run to open as JSON: a tree row, or ids passed by a panel (the trace viewer's Open Raw JSON). */
function runDocumentRef(node: unknown): { ref: RunDocumentRef; name: string } | undefined {
  if (node instanceof RunNode || node instanceof QueueRunNode) {
    const run = node.run;
    // The project and start time let the read go to LangSmith's v2 run API, which addresses a run by them.
    return { ref: { id: run.id, projectId: run.session_id ?? undefined, startTime: typeof run.start_time === 'string' ? run.start_time : undefined }, name: run.name ?? '' };
  }
  const { runId, projectId } = (typeof node === 'object' && node !== null ? node : {}) as { runId?: unknown; projectId?: unknown };
  if (typeof runId !== 'string' || !/^[0-9a-f-]{36}$/i.test(runId)) return undefined;
  return { ref: { id: runId, projectId: typeof projectId === 'string' ? projectId : undefined }, name: '' };
}

type Identified = ProjectNode | RunNode | QueueRunNode | DatasetNode | ExampleNode | QueueNode | CommitNode | PromptNode;

function isIdentified(n: unknown): n is Identified {
  return [ProjectNode, RunNode, QueueRunNode, DatasetNode, ExampleNode, QueueNode, CommitNode, PromptNode].some((k) => n instanceof k);
}

function idOf(node: Identified): string {
  if (node instanceof ProjectNode) return node.project.id;
  if (node instanceof RunNode || node instanceof QueueRunNode) return node.run.id;
  if (node instanceof DatasetNode) return node.dataset.id;
  if (node instanceof ExampleNode) return node.example.id;
  if (node instanceof QueueNode) return node.queue.id;
  if (node instanceof CommitNode) return node.commit.commit_hash;
  return node.identifier;
}

/** The web page of a tree item, in the link shapes of LangSmith. */
export async function webLink(client: LangSmithClient, node: unknown): Promise<string> {
  if (node instanceof ProjectNode) return client.links.project({ projectId: node.project.id });
  if (node instanceof RunNode || node instanceof QueueRunNode) {
    const projectId = node.run.session_id;
    if (!projectId) throw new Error(vscode.l10n.t('This run does not name its project, so it has no page link.'));
    return `${await client.links.project({ projectId })}?peek=${encodeURIComponent(node.run.id)}`;
  }
  if (node instanceof DatasetNode) return client.links.dataset({ datasetId: node.dataset.id });
  if (node instanceof PromptNode) return client.links.prompt(node.identifier);
  if (node instanceof CommitNode) return client.links.prompt(`${node.promptNode.identifier}:${node.commit.commit_hash}`);
  throw new Error(vscode.l10n.t('This item has no page in LangSmith.'));
}

