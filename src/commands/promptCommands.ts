// Prompt repositories: create, delete, like/unlike, public/private, archive/unarchive.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import { PromptNode } from '../views/promptsView';
import type { LangSmithViews } from '../views/views';
import { Commands } from '../constants';
import type { CommandRegistrar } from './registerCommand';
import { ask, confirm, validatePromptName } from './ui';

export function registerPromptCommands(register: CommandRegistrar, clients: ClientService, views: LangSmithViews): void {
  const prompt = (node: unknown): PromptNode => {
    if (!(node instanceof PromptNode)) throw new Error('Select a prompt in the Prompts view first.');
    return node;
  };
  const after = (_node: PromptNode, message: string) => {
    // Visibility, likes and archiving move a prompt between groups: reload the whole view.
    views.prompts.refresh();
    vscode.window.setStatusBarMessage(message, 4000);
  };

  register(Commands.createPrompt, async () => {
    const name = await ask({ title: 'New prompt (1/2)', prompt: 'Prompt name (lowercase, digits, - and _)', validateInput: validatePromptName });
    const description = await ask({ title: 'New prompt (2/2)', prompt: 'Description (optional)' });
    await clients.call((c) => c.prompts.create(name, { description: description || undefined }));
    views.prompts.refresh();
    void vscode.window.showInformationMessage(`Created the prompt “${name}”. Push a first commit to give it content.`);
  });
  register(Commands.deletePrompt, async (node) => {
    const p = prompt(node);
    await confirm(`Delete the prompt “${p.repo.repo_handle}” with all its commits?`, 'This cannot be undone.', 'Delete');
    await clients.call((c) => c.prompts.delete(p.identifier));
    views.prompts.refresh();
  });
  register(Commands.likePrompt, async (node) => {
    const p = prompt(node);
    const { likes } = await clients.call((c) => c.prompts.like(p.identifier));
    after(p, `Liked ${p.identifier} (${likes} likes)`);
  });
  register(Commands.unlikePrompt, async (node) => {
    const p = prompt(node);
    const { likes } = await clients.call((c) => c.prompts.unlike(p.identifier));
    after(p, `Removed your like of ${p.identifier} (${likes} likes)`);
  });
  register(Commands.makePromptPublic, async (node) => {
    const p = prompt(node);
    await confirm(`Make “${p.repo.repo_handle}” public?`, 'Anyone will be able to read and pull it from the hub.', 'Make Public');
    await clients.call((c) => c.prompts.update(p.identifier, { isPublic: true }));
    after(p, `${p.identifier} is public`);
  });
  register(Commands.makePromptPrivate, async (node) => {
    const p = prompt(node);
    await clients.call((c) => c.prompts.update(p.identifier, { isPublic: false }));
    after(p, `${p.identifier} is private`);
  });
  register(Commands.archivePrompt, async (node) => {
    const p = prompt(node);
    await clients.call((c) => c.prompts.update(p.identifier, { isArchived: true }));
    after(p, `${p.identifier} is archived`);
  });
  register(Commands.unarchivePrompt, async (node) => {
    const p = prompt(node);
    await clients.call((c) => c.prompts.update(p.identifier, { isArchived: false }));
    after(p, `${p.identifier} is active again`);
  });
}
