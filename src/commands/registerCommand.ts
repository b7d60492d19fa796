// The one way commands are registered: every failure is logged in full, the user sees one short
// notification with a "Show Log" action, and cancellation stays silent. A bulk action that stopped part-way
// (PartlyDone) says how far it got and offers Retry for the rest.
import * as vscode from 'vscode';
import type { CommandId } from '../constants';
import { Commands } from '../constants';

import { UserCancelled } from '../common/cancelled';
import { BundleMissingError } from '../common/lazy';
import { prompter } from '../common/prompter';
import { PartlyDone } from './partlyDone';

export { UserCancelled };

function isCancellation(err: unknown): boolean {
  return err instanceof UserCancelled || err instanceof vscode.CancellationError || (err instanceof Error && err.name === 'AbortError');
}

/** Registers a command through the one error policy; what command modules receive. */
export type CommandRegistrar = (id: CommandId, run: (...args: unknown[]) => unknown) => void;

export function commandRegistrar(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): CommandRegistrar {
  return (id, run) => registerCommand(context, log, id, run);
}

export function registerCommand(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  id: CommandId,
  run: (...args: unknown[]) => unknown,
): void {
  context.subscriptions.push(vscode.commands.registerCommand(id, (...args: unknown[]) => guarded(log, id, () => run(...args))));
}

/** Runs a command's work under the error policy; a bulk action that stopped part-way may be retried, under it too. */
async function guarded(log: vscode.LogOutputChannel, id: CommandId, work: () => unknown): Promise<unknown> {
  try {
    return await work();
  } catch (err) {
    if (isCancellation(err)) {
      log.debug(`${id}: cancelled`);
      return undefined;
    }
    const message = err instanceof Error ? err.message : String(err);
    log.error(`${id} failed: ${err instanceof Error && err.stack ? err.stack : message}`);
    // The window was already told to reload (see src/common/lazy.ts): no second notification.
    if (err instanceof BundleMissingError) return undefined;
    if (err instanceof PartlyDone) {
      // What was done is done; Retry goes on with the rest (and may stop part-way again).
      if (await prompter().offerRetry(message, vscode.l10n.t('Retry'))) return guarded(log, id, () => err.rest());
      return undefined;
    }
    const showLog = vscode.l10n.t('Show Log');
    void vscode.window.showErrorMessage(message, showLog).then((choice) => {
      if (choice === showLog) void vscode.commands.executeCommand(Commands.showLog);
    });
    return undefined;
  }
}
