// Drafts of unfinished reviews, per queue, in the workspace state.
import type * as vscode from 'vscode';
import type { Draft } from '../../protocol/review';

/** Drafts kept per queue (the most recently changed). */
const DRAFTS_KEPT = 200;

/** Unfinished reviews of one queue, in the workspace state: survive a reload and a closed panel. */
export class Drafts {
  constructor(
    private readonly memento: vscode.Memento,
    private readonly queueId: string,
  ) {}

  private get key(): string {
    return `langsmith.review.drafts/${this.queueId}`;
  }

  private all(): Record<string, Draft> {
    const raw = this.memento.get<unknown>(this.key);
    return raw && typeof raw === 'object' ? (raw as Record<string, Draft>) : {};
  }

  get(itemId: string): Draft | null {
    return this.all()[itemId] ?? null;
  }

  async set(itemId: string, draft: Draft | null): Promise<void> {
    const all = this.all();
    if (draft) all[itemId] = draft;
    else delete all[itemId];
    const kept = Object.entries(all)
      .sort((a, b) => b[1].savedAt - a[1].savedAt)
      .slice(0, DRAFTS_KEPT);
    await this.memento.update(this.key, kept.length ? Object.fromEntries(kept) : undefined);
  }
}
