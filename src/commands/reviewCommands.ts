// Review Queue: opens a queue's review panel (one per queue), at a clicked item or at the first item needing
// my review; from the palette, after picking the queue.
import * as vscode from 'vscode';
import type { ClientService } from '../auth/clientService';
import { Commands } from '../constants';
import type { ReviewKey } from '../protocol/review';
import { Panels } from '../webviews/descriptors';
import type { PanelFrame } from '../webviews/panels';
import type { CommandRegistrar } from './registerCommand';
import { choose } from './ui';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const uuidOr = (v: unknown): string | undefined => (typeof v === 'string' && UUID.test(v) ? v : undefined);

/**
 * The queue (and item) a command was given: a queue row (`queue.id`), an item row (`queueId` and `itemId`, or
 * `item.id` under `queueNode.queue.id`), or ids passed by a panel (`{ queueId, itemId? }`).
 */
export function reviewTarget(arg: unknown): ReviewKey | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const a = arg as { queueId?: unknown; itemId?: unknown; queue?: { id?: unknown }; queueNode?: { queue?: { id?: unknown } }; item?: { id?: unknown; queue_id?: unknown } };
  const queueId = uuidOr(a.queueId) ?? uuidOr(a.queue?.id) ?? uuidOr(a.queueNode?.queue?.id) ?? uuidOr(a.item?.queue_id);
  if (!queueId) return undefined;
  const itemId = uuidOr(a.itemId) ?? uuidOr(a.item?.id);
  return { queueId, ...(itemId ? { itemId } : {}) };
}

export function registerReviewCommands(register: CommandRegistrar, clients: ClientService, panels: PanelFrame): void {
  register(Commands.reviewQueue, async (arg) => {
    let key = reviewTarget(arg);
    if (!key) {
      type Item = vscode.QuickPickItem & { id: string };
      const items = clients.call(async (c) => {
        const list: Item[] = [];
        for await (const q of c.annotationQueues.list({ limit: 500 })) {
          list.push({ label: q.name, description: typeof q.total_runs === 'number' ? vscode.l10n.t('{0} runs', q.total_runs) : undefined, detail: q.description ?? undefined, id: q.id });
        }
        if (!list.length) throw new Error(vscode.l10n.t('There is no annotation queue yet: create one in the Annotation Queues view first.'));
        return list;
      });
      const picked = await choose(items, { title: vscode.l10n.t('Review an annotation queue'), placeholder: vscode.l10n.t('Choose a queue') });
      key = { queueId: picked.id };
    }
    const queueId = key.queueId;
    const wasOpen = panels.panelsOf<ReviewKey>(Panels.review).some((p) => p.key.queueId === queueId);
    const host = await panels.show(Panels.review, key);
    // Already open on this queue: show the clicked item (a new panel starts at it).
    if (key.itemId && wasOpen) {
      const { ShowItem } = await import('../protocol/review');
      await host.notify(ShowItem, { itemId: key.itemId });
    }
  });
}
