// The editor's change bus: publishers (commands, panels, agent tools) tell what a write changed; subscribers (the
// trees, the open panels, the prompt references) update only that. Nothing travels by a tool's or a command's name.
import * as vscode from 'vscode';
import type { Change, ChangePublisher } from '../protocol/changes';

export class ChangeBus implements ChangePublisher, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<Change>();
  /** Fired once per published change, after the write it describes went through. */
  readonly onDidChange = this.emitter.event;

  constructor(private readonly log?: { warn(message: string): void }) {}

  publish(change: Change): void {
    try {
      this.emitter.fire(change);
    } catch (err) {
      // A subscriber that throws must not fail the write that was already made.
      this.log?.warn(`A view could not take a change (${change.kind}): ${String(err)}`);
    }
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
