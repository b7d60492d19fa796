// Answers a command's questions from a script, the way a person would: typed text goes through the box's own
// validation (a rejected answer is recorded and the box dismissed, as when a user gives up), picks match
// labels. Anything asked beyond the script, or of the wrong kind, fails the test.
import type * as vscode from 'vscode';
import type { PickOptions, Prompter } from '../../../src/common/prompter';

export type Answer =
  | { input: string }
  | { dismiss: true }
  | { confirm: boolean }
  | { pick: string }
  | { pickMany: string[] }
  | { file: vscode.Uri | undefined }
  /** Retry (true) or close (false) an error that offers Retry; `first` runs before the answer (a test mends the fault). */
  | { retry: boolean; first?: () => Promise<void> };

export class ScriptedPrompter implements Prompter {
  /** Every question, in order: the input box prompt/title, the confirmation message or the pick title. */
  readonly asked: string[] = [];
  /** Messages the input boxes' own validation gave for scripted answers. */
  readonly rejected: string[] = [];
  /** Labels offered by the pickers, per pick. */
  readonly offered: string[][] = [];

  constructor(private readonly answers: Answer[]) {}

  get unused(): number {
    return this.answers.length;
  }

  private next<K extends string>(kind: K, question: string): Extract<Answer, Record<K, unknown>> | { dismiss: true } {
    this.asked.push(question);
    const answer = this.answers.shift();
    if (!answer) throw new Error(`Unscripted question: ${question}`);
    if ('dismiss' in answer) return answer;
    if (!(kind in answer)) throw new Error(`Expected a ${Object.keys(answer)[0]} answer, but was asked (${kind}): ${question}`);
    return answer as Extract<Answer, Record<K, unknown>>;
  }

  async input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    const answer = this.next('input', options.prompt ?? options.title ?? '');
    if ('dismiss' in answer) return undefined;
    const problem = await options.validateInput?.(answer.input);
    const message = typeof problem === 'string' ? problem : problem?.message;
    if (message) {
      this.rejected.push(message);
      return undefined;
    }
    return answer.input;
  }

  async confirm(message: string): Promise<boolean> {
    const answer = this.next('confirm', message);
    return 'dismiss' in answer ? false : answer.confirm;
  }

  async pick<T extends vscode.QuickPickItem>(items: T[] | Promise<T[]>, options: PickOptions): Promise<T | undefined> {
    const answer = this.next('pick', options.title ?? options.placeholder ?? '');
    const list = await items;
    this.offered.push(list.map((i) => i.label));
    if ('dismiss' in answer) return undefined;
    const found = list.find((i) => i.label === answer.pick || i.label.includes(answer.pick));
    if (!found) throw new Error(`No item “${answer.pick}” among: ${list.map((i) => i.label).join(', ')}`);
    return found;
  }

  async pickMany<T extends vscode.QuickPickItem>(items: T[] | Promise<T[]>, options: PickOptions): Promise<T[] | undefined> {
    const answer = this.next('pickMany', options.title ?? options.placeholder ?? '');
    const list = await items;
    this.offered.push(list.map((i) => i.label));
    if ('dismiss' in answer) return undefined;
    return list.filter((i) => answer.pickMany.includes(i.label));
  }

  async openFile(options: vscode.OpenDialogOptions): Promise<vscode.Uri | undefined> {
    const answer = this.next('file', options.title ?? 'open file');
    return 'dismiss' in answer ? undefined : answer.file;
  }

  /** The messages of the errors that offered Retry. */
  readonly retryOffers: string[] = [];

  async offerRetry(message: string): Promise<boolean> {
    this.retryOffers.push(message);
    const answer = this.next('retry', message);
    if ('dismiss' in answer) return false;
    await answer.first?.();
    return answer.retry;
  }

    /** The options of each save dialog shown (where it proposed to save). */
  readonly saveOptions: vscode.SaveDialogOptions[] = [];

  async saveFile(options: vscode.SaveDialogOptions): Promise<vscode.Uri | undefined> {
    this.saveOptions.push(options);
    const answer = this.next('file', options.title ?? 'save file');
    return 'dismiss' in answer ? undefined : answer.file;
  }
}
