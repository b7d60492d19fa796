// Prompt repositories: create, delete, like/unlike, public/private, archive/unarchive.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import { PromptNode } from '../views/promptsView';
import { Commands } from '../constants';
import type { CommandRegistrar } from './registerCommand';
import { ask, confirm, validatePromptName } from './ui';
import type { ChangePublisher } from '../protocol/changes';

export function registerPromptCommands(register: CommandRegistrar, clients: ClientService, changes: ChangePublisher): void {
  const prompt = (node: unknown): PromptNode => {
    if (!(node instanceof PromptNode)) throw new Error(vscode.l10n.t('Select a prompt in the Prompts view first.'));
    return node;
  };
  const after = (_node: PromptNode, message: string) => {
    // Visibility, likes and archiving move a prompt between groups: reload the whole view.
    changes.publish({ kind: 'prompt' });
    vscode.window.setStatusBarMessage(message, 4000);
  };

  register(Commands.createPrompt, async () => {
    const name = await ask({ title: vscode.l10n.t('New prompt (1/2)'), prompt: vscode.l10n.t('Prompt name (lowercase, digits, - and _)'), validateInput: validatePromptName });
    const description = await ask({ title: vscode.l10n.t('New prompt (2/2)'), prompt: vscode.l10n.t('Description (optional)') });
    await clients.call((c) => c.prompts.create(name, { description: description || undefined }));
    changes.publish({ kind: 'prompt' });
    void vscode.window.showInformationMessage(vscode.l10n.t('Created the prompt “{0}”. Push a first commit to give it content.', name));
  });
  register(Commands.deletePrompt, async (node) => {
    const p = prompt(node);
    await confirm(vscode.l10n.t('Delete the prompt “{0}” with all its commits?', p.repo.repo_handle), vscode.l10n.t('This cannot be undone.'), vscode.l10n.t('Delete'));
    await clients.call((c) => c.prompts.delete(p.identifier));
    changes.publish({ kind: 'prompt' });
  });
  register(Commands.likePrompt, async (node) => {
    const p = prompt(node);
    const { likes } = await clients.call((c) => c.prompts.like(p.identifier));
    after(p, vscode.l10n.t('Liked {0} ({1} likes)', p.identifier, likes));
  });
  register(Commands.unlikePrompt, async (node) => {
    const p = prompt(node);
    const { likes } = await clients.call((c) => c.prompts.unlike(p.identifier));
    after(p, vscode.l10n.t('Removed your like of {0} ({1} likes)', p.identifier, likes));
  });
  register(Commands.makePromptPublic, async (node) => {
    const p = prompt(node);
    await confirm(vscode.l10n.t('Make “{0}” public?', p.repo.repo_handle), vscode.l10n.t('Anyone will be able to read and pull it from the hub.'), vscode.l10n.t('Make Public'));
    await clients.call((c) => c.prompts.update(p.identifier, { isPublic: true }));
    after(p, vscode.l10n.t('{0} is public', p.identifier));
  });
  register(Commands.makePromptPrivate, async (node) => {
    const p = prompt(node);
    await clients.call((c) => c.prompts.update(p.identifier, { isPublic: false }));
    after(p, vscode.l10n.t('{0} is private', p.identifier));
  });
  register(Commands.archivePrompt, async (node) => {
    const p = prompt(node);
    await clients.call((c) => c.prompts.update(p.identifier, { isArchived: true }));
    after(p, vscode.l10n.t('{0} is archived', p.identifier));
  });
  register(Commands.unarchivePrompt, async (node) => {
    const p = prompt(node);
    await clients.call((c) => c.prompts.update(p.identifier, { isArchived: false }));
    after(p, vscode.l10n.t('{0} is active again', p.identifier));
  });
}
