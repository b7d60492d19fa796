// The example editor's host side: reads the example and its dataset for the webview, saves drafts without
// overwriting someone else's change (a conflict offers VS Code's diff instead), and handles attachments (files
// the user picks are read here and held until the save; attachments open from a temporary copy).
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Example, LangSmithClient } from '../../client';
import { isNotFound, LangSmithError } from '../../client/errors';
import { exampleSplits, metadataWithoutSplit } from '../../client/exampleSplits';
import { lastHumanMessage } from '../../text/chatText';
import { prompter } from '../../common/prompter';
import {
  DraftState,
  ExampleChanged,
  ExampleEditorKey,
  ExampleEditorReady,
  OpenAttachment,
  PickAttachment,
  SaveExample,
  ShowConflictDiff,
  type DraftText,
  type ExampleDraft,
  type ExampleEditorState,
  type ExampleSnapshot,
} from '../../protocol/exampleEditor';
import type { ParamsOf, ResultOf } from '../../protocol/messages';
import { RequestError } from '../../protocol/router';
import { setDraft } from '../../views/documents';
import type { PanelApp, PanelContext, PanelController, PanelServices } from '../panels';
import type { WebviewHost } from '../webviewHost';

/** Files larger than this are refused when attached (they travel in one request). */
export const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Drafts of panels closed with unsaved changes and reopened from the question: handed to the new panel once. */
const recovered = new Map<string, DraftText>();

function snapshot(e: Example): ExampleSnapshot {
  // The editor shows the splits on their own, not in the metadata.
  const metadata = metadataWithoutSplit(e.metadata) ?? null;
  return {
    id: e.id,
    inputs: (e.inputs ?? {}) as Record<string, unknown>,
    outputs: (e.outputs ?? null) as Record<string, unknown> | null,
    metadata: metadata && Object.keys(metadata).length ? metadata : null,
    splits: exampleSplits(e),
    attachments: Object.entries(e.attachments ?? {}).map(([name, a]) => ({ name, mimeType: a.mime_type ?? 'application/octet-stream' })),
    modifiedAt: e.modified_at ?? null,
  };
}

async function readExample(client: LangSmithClient, id: string, signal: AbortSignal): Promise<Example | null> {
  try {
    return await client.examples.read(id, { signal });
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/** The tab's title: a chat's last human message, else the first text of the inputs, else their JSON. */
function summary(inputs: Record<string, unknown>): string {
  const first = lastHumanMessage(inputs) ?? (Object.values(inputs).find((v) => typeof v === 'string') as string | undefined);
  const text = (first ?? JSON.stringify(inputs)).replace(/\s+/g, ' ').trim();
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/** Text of an example for the diff editor: the fields the editor edits, in a stable order. */
function draftText(e: ExampleDraft | ExampleSnapshot | null): string {
  if (!e) return 'null\n';
  const { inputs, outputs, metadata, splits } = e;
  return `${JSON.stringify({ inputs, outputs, metadata, splits }, null, 2)}\n`;
}

const MIME: Record<string, string> = {
  '.txt': 'text/plain', '.md': 'text/markdown', '.json': 'application/json', '.csv': 'text/csv', '.html': 'text/html',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf', '.wav': 'audio/wav', '.mp3': 'audio/mpeg', '.mp4': 'video/mp4',
};

function mimeOf(fileName: string): string {
  return MIME[path.extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

/** A file extension for a temporary copy: from the type, else from the name when it is a plain one; never a path. */
function extensionFor(name: string, mimeType: string): string {
  const byType = Object.entries(MIME).find(([, m]) => m === mimeType)?.[0];
  if (byType) return byType;
  const ext = path.extname(name);
  return /^\.[a-z0-9]{1,8}$/i.test(ext) ? ext : '';
}

export const exampleEditorApp: PanelApp<ExampleEditorKey, typeof ExampleEditorReady.result.shape.state> = {
  ready: ExampleEditorReady,
  parseKey(raw) {
    const key = ExampleEditorKey.safeParse(raw);
    return key.success && UUID.test(key.data.datasetId) && UUID.test(key.data.exampleId) ? key.data : undefined;
  },
  keyId: (key) => key.exampleId,
  title: (key) => (key.isNew ? vscode.l10n.t('New Example') : vscode.l10n.t('Example')),

  open(context) {
    const editor = new ExampleSession(context);
    const { router } = context.host;
    router.onRequest(SaveExample, (params, { signal }) => editor.save(params, signal));
    router.onRequest(ShowConflictDiff, ({ draft }, { signal }) => editor.showConflictDiff(draft, signal));
    router.onRequest(PickAttachment, () => editor.pickAttachment());
    router.onRequest(OpenAttachment, ({ name }, { signal }) => editor.openAttachment(name, signal));
    router.onNotification(DraftState, ({ dirty, draft }) => editor.draftChanged(dirty, draft));
    return editor;
  },
};

type HeldFile = { name: string; mimeType: string; bytes: Uint8Array };

/** One example editor panel: the example as the server last had it, the draft's state, the files picked to attach. */
class ExampleSession implements PanelController<ExampleEditorState> {
  private readonly host: WebviewHost;
  private readonly key: ExampleEditorKey;
  private readonly services: PanelServices;
  private readonly setTitle: (title: string) => void;
  private readonly reopenPanel: () => Promise<void>;
  /** Files picked to attach, by token, until the save sends them. */
  private readonly files = new Map<string, HeldFile>();
  private dirty = false;
  private lastDraft: DraftText | null = null;
  /** What the webview was last told the server has (to notice changes made elsewhere). */
  private known: ExampleSnapshot | null = null;
  private baseTitle: string;
  private readonly viewState: vscode.Disposable;

  constructor({ host, key, services, setTitle, reopen }: PanelContext<ExampleEditorKey>) {
    this.host = host;
    this.key = key;
    this.services = services;
    this.setTitle = setTitle;
    this.reopenPanel = reopen;
    this.baseTitle = exampleEditorApp.title(key);
    // Coming back into view in the same page (another group was focused): tell the app if the server moved on.
    this.viewState = host.panel.onDidChangeViewState(() => this.checkServer());
  }

  private showTitle(): void {
    this.setTitle(`${this.dirty ? '● ' : ''}${this.baseTitle}`);
  }

  private read(signal: AbortSignal): Promise<Example | null> {
    return this.services.clients.call((c) => readExample(c, this.key.exampleId, signal));
  }

  async state(signal: AbortSignal): Promise<ExampleEditorState> {
    const key = this.key;
    const [dataset, splits, example] = await this.services.clients.call((c) =>
      Promise.all([c.datasets.read({ datasetId: key.datasetId, signal }), c.datasets.listSplits({ datasetId: key.datasetId, signal }), readExample(c, key.exampleId, signal)]),
    );
    if (!example && !key.isNew) throw new RequestError('requestFailed', vscode.l10n.t('This example no longer exists: it was deleted from the dataset.'));
    this.known = example ? snapshot(example) : null;
    this.baseTitle = this.known ? vscode.l10n.t('Example · {0}', summary(this.known.inputs)) : vscode.l10n.t('New Example · {0}', dataset.name);
    this.showTitle();
    const draft = recovered.get(key.exampleId) ?? null;
    recovered.delete(key.exampleId);
    const schema = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);
    return {
      dataset: { id: dataset.id, name: dataset.name, inputsSchema: schema(dataset.inputs_schema_definition), outputsSchema: schema(dataset.outputs_schema_definition), splits },
      example: this.known,
      exampleId: key.exampleId,
      split: key.split ?? null,
      recoveredDraft: draft,
    };
  }

  async save({ base, draft, attachments, force }: ParamsOf<typeof SaveExample>, signal: AbortSignal): Promise<ResultOf<typeof SaveExample>> {
    const { key, files, services } = this;
    const current = await this.read(signal);
    const server = current ? snapshot(current) : null;
    const changed = base === null ? server !== null : server === null || server.modifiedAt !== base;
    if (changed && !force) return { status: 'conflict' as const, server };
    for (const { token } of attachments.add) if (!files.has(token)) throw new RequestError('invalidParams', vscode.l10n.t('An attached file is no longer held: attach it again.'));
    const added = Object.fromEntries(attachments.add.map(({ token, name }) => {
      const f = files.get(token)!;
      return [name, { mimeType: f.mimeType, data: f.bytes }];
    }));
    const metadata = draft.metadata ?? {};
    if (!server) {
      await services.clients.call((c) => c.examples.create({
        datasetId: key.datasetId,
        examples: [{ id: key.exampleId, inputs: draft.inputs, outputs: draft.outputs, metadata, split: draft.splits.length ? draft.splits : undefined, attachments: added }],
        signal,
      }));
    } else {
      const kept = server.attachments.map((a) => a.name).filter((n) => !attachments.remove.includes(n));
      await services.clients.call((c) => c.examples.update({
        datasetId: key.datasetId,
        updates: [{
          id: key.exampleId,
          inputs: draft.inputs,
          outputs: draft.outputs ?? {},
          metadata,
          split: draft.splits.length ? draft.splits : ['base'],
          attachments: added,
          attachmentsOperations: { retain: kept.filter((n) => !(n in attachments.rename)), rename: attachments.rename },
        }],
        signal,
      }));
    }
    for (const { token } of attachments.add) files.delete(token);
    const saved = await this.read(signal);
    if (!saved) throw new RequestError('requestFailed', vscode.l10n.t('The example was saved but could not be read back.'));
    const known = snapshot(saved);
    this.known = known;
    this.dirty = false;
    this.lastDraft = null;
    this.baseTitle = vscode.l10n.t('Example · {0}', summary(known.inputs));
    this.showTitle();
    services.log.info(`Saved example ${key.exampleId} of dataset ${key.datasetId}.`);
    services.changes.publish({ kind: 'dataset', datasetId: key.datasetId });
    return { status: 'saved' as const, example: known };
  }

  async showConflictDiff(draft: ExampleDraft, signal: AbortSignal): Promise<Record<string, never>> {
    const current = await this.read(signal);
    const left = setDraft(`${this.key.exampleId}-server`, 'example-on-server', draftText(current ? snapshot(current) : null));
    const right = setDraft(`${this.key.exampleId}-draft`, 'example-yours', draftText(draft));
    await vscode.commands.executeCommand('vscode.diff', left, right, vscode.l10n.t('Example: on the server ↔ yours'), { preview: true });
    return {};
  }

  async pickAttachment(): Promise<ResultOf<typeof PickAttachment>> {
    const uri = await prompter().openFile({ title: vscode.l10n.t('Attach a file to the example'), openLabel: vscode.l10n.t('Attach'), canSelectFiles: true, canSelectFolders: false });
    if (!uri) return null;
    const stat = await vscode.workspace.fs.stat(uri);
    const name = path.basename(uri.path);
    if (stat.size > MAX_ATTACHMENT_BYTES) {
      throw new RequestError('invalidParams', vscode.l10n.t('{0} is {1} MB; attachments can be at most {2} MB.', name, (stat.size / 1024 / 1024).toFixed(1), MAX_ATTACHMENT_BYTES / 1024 / 1024));
    }
    const bytes = await vscode.workspace.fs.readFile(uri);
    const token = randomUUID();
    this.files.set(token, { name, mimeType: mimeOf(name), bytes });
    return { token, name, mimeType: mimeOf(name), size: bytes.byteLength };
  }

  async openAttachment(name: string, signal: AbortSignal): Promise<Record<string, never>> {
    const current = await this.read(signal);
    const attachment = current?.attachments?.[name];
    if (!attachment) throw new RequestError('invalidParams', vscode.l10n.t('The example has no attachment named “{0}” (save first to open a new one).', name));
    if (!/^https?:\/\//i.test(attachment.presigned_url)) throw new RequestError('requestFailed', vscode.l10n.t('The attachment link is not a web address.'));
    // Through the client's connection (proxy, CA file); a presigned link takes no API key. Its failure (an
    // expired link, storage on another host) is answered here and says nothing about the LangSmith connection.
    const download = await this.services.clients.call((c) =>
      c.examples.downloadAttachment(attachment, { signal }).then(
        (bytes) => ({ bytes }),
        (err: unknown) => ({ err }),
      ),
    );
    if ('err' in download) {
      const { err } = download;
      if (err instanceof LangSmithError && err.status !== undefined) {
        throw new RequestError('requestFailed', vscode.l10n.t('Downloading “{0}” failed: {1} {2}.', name, err.status, err.statusText ?? ''));
      }
      throw err;
    }
    const { bytes } = download;
    // The server's name never becomes a path: the copy gets a fresh name with a plain extension.
    const file = vscode.Uri.file(path.join(os.tmpdir(), 'langsmith-attachments', `${randomUUID()}${extensionFor(name, attachment.mime_type ?? '')}`));
    await vscode.workspace.fs.writeFile(file, bytes);
    await vscode.commands.executeCommand('vscode.open', file, { preview: true });
    return {};
  }

  draftChanged(dirty: boolean, draft: DraftText | null): void {
    this.dirty = dirty;
    this.lastDraft = dirty ? draft : null;
    this.showTitle();
  }

  private async checkServer(): Promise<void> {
    if (!this.host.panel.active || !this.known) return;
    try {
      const current = await this.read(this.host.signal);
      const now = current ? snapshot(current) : null;
      if (now?.modifiedAt !== this.known.modifiedAt) {
        this.known = now;
        void this.host.notify(ExampleChanged, { example: now });
      }
    } catch {
      /* the next save or reload will say what is wrong */
    }
  }

  dispose(): void {
    this.viewState.dispose();
    this.files.clear();
    if (!this.dirty || !this.lastDraft) return;
    // The tab was closed with unsaved changes: nothing the user wrote is dropped without asking.
    const draft = this.lastDraft;
    const key = this.key;
    const reopen = vscode.l10n.t('Reopen');
    void vscode.window
      .showWarningMessage(vscode.l10n.t('“{0}” was closed with unsaved changes.', this.baseTitle), { modal: false }, reopen, vscode.l10n.t('Discard'))
      .then((choice) => {
        if (choice !== reopen) return;
        recovered.set(key.exampleId, draft);
        void this.reopenPanel();
      });
  }
}
