// The one place that creates, tracks, reveals and restores webview panels, from their descriptors. An app is a
// descriptor (descriptors.ts), a protocol file (src/protocol/<app>.ts), a host controller (a PanelApp in
// src/webviews/<app>/) and a React app (webview-ui/src/apps/<app>/); this file is the same for all of them.
import * as vscode from 'vscode';
import type * as z from 'zod/mini';
import type { ClientService } from '../auth/clientService';
import type { LangSmithClient, Tracer, TracerOptions } from '../client';
import type { ConnectionState, ReadyType, Schema } from '../protocol/messages';
import type { WebviewHost } from './webviewHost';
import type { Change, ChangePublisher } from '../protocol/changes';

/** The webview host (and with it the message router and zod) loads with the first panel, not at activation. */
const loadWebviewHost = () => import('./webviewHost').then((m) => m.WebviewHost);

/** What the frame needs to create, track, reveal and restore the panels of one app (see definePanel). */
export interface PanelDescriptor<K = unknown> {
  /** The app's name: its bundle (dist/webviews/<app>.js), its protocol scope, its host folder and its view type. */
  readonly app: string;
  /** `langsmith.<app>`; package.json activates on `onWebviewPanel:<viewType>` so a panel restores (a unit test checks). */
  readonly viewType: string;
  /** An icon of media/ for the editor tab. */
  readonly icon: string;
  /** Whether the bundle comes with a stylesheet (dist/webviews/<app>.css). */
  readonly hasCss: boolean;
  /** Whether a panel comes back after a window reload (through a serializer). */
  readonly restores: boolean;
  /** One panel for the app, or one per thing it shows (an example, a pair of versions). */
  readonly instances: 'one' | 'perKey';
  /** The host controller, loaded on first use. */
  readonly load: () => Promise<PanelApp<K>>;
}

/** The view type of an app's panels. */
export function viewTypeOf(app: string): string {
  return `langsmith.${app}`;
}

/**
 * A descriptor from what sets the app apart (its name, its instances, its lazily loaded controller); the rest
 * has defaults: the view type from the name, the LangSmith icon, a stylesheet, restored after a reload.
 */
export function definePanel<K, S extends Schema>(
  d: Pick<PanelDescriptor<K>, 'app' | 'instances'> & Partial<Pick<PanelDescriptor<K>, 'icon' | 'hasCss' | 'restores'>> & { load: () => Promise<PanelApp<K, S>> },
): PanelDescriptor<K> {
  // The frame handles every app's state as unknown: it only hands it from the controller to the ready answer.
  return { viewType: viewTypeOf(d.app), icon: 'langsmith.svg', hasCss: true, restores: true, ...d, load: d.load as unknown as () => Promise<PanelApp<K>> };
}

/**
 * The API as panels reach it: every call goes through `call`, which records what it says about the
 * connection's health (the status bar, the trees); the client itself is not handed out.
 */
export interface PanelClients {
  call<T>(work: (client: LangSmithClient) => Promise<T>): Promise<T>;
  /** The client module (runnables, templates, the chat model). */
  api: ClientService['api'];
  /** The fetch for other HTTP (a model endpoint), through the same proxy and CA settings. */
  networkFetch: ClientService['networkFetch'];
  readonly connection: ClientService['connection'];
  /** A run queue of its own on the current connection (throws NotSignedInError when signed out). */
  createTracer(options: TracerOptions): Promise<Tracer>;
}

/** The narrow view of the client service that panels get. */
export function panelClients(clients: ClientService): PanelClients {
  return {
    call: (work) => clients.call(work),
    api: () => clients.api(),
    networkFetch: () => clients.networkFetch(),
    connection: clients.connection,
    createTracer: async (options) => (await clients.client()).createTracer(options),
  };
}

/** What host controllers may use. */
export interface PanelServices {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  readonly clients: PanelClients;
  /** Where panels keep what they remember per workspace (the playground's values). */
  readonly workspaceState: vscode.Memento;
  /** The extension's SecretStorage (the playground's model keys). */
  readonly secrets: vscode.SecretStorage;
  connection(): Promise<ConnectionState>;
  readonly onDidChangeConnection: vscode.Event<void>;
  /** The change bus: a panel publishes what it changed (a saved example, a pushed prompt); trees and panels update. */
  readonly changes: ChangePublisher;
}

/** A panel being set up by its app's controller. */
export interface PanelContext<K> {
  readonly host: WebviewHost;
  readonly key: K;
  readonly services: PanelServices;
  /** Sets the tab's title (it starts as the app's title for the key). */
  setTitle(title: string): void;
  /** Opens this app's panel for this key again (or reveals it), as after the panel was closed. */
  reopen(): Promise<void>;
}

/** What a panel's controller gives the frame. */
export interface PanelController<S> {
  /** Told what changed elsewhere (a queue's rubric saved, by a panel, a command or an agent), to show it without a reload. */
  changed?(what: Change): void;
  /** The app's whole state, answered to every ready request (first load, shown again, restored). */
  state(signal: AbortSignal): Promise<S>;
  dispose?(): void;
}

/** The host side of one webview app. */
export interface PanelApp<K, S extends Schema = Schema> {
  readonly ready: ReadyType<S>;
  /** The key of a restored panel, from the webview's own state: checked like any input; undefined when unusable. */
  parseKey(raw: unknown): K | undefined;
  /** Tells panels apart for `instances: 'perKey'`. */
  keyId(key: K): string;
  title(key: K): string;
  open(context: PanelContext<K>): PanelController<z.infer<S>>;
}

interface OpenPanel {
  readonly descriptor: PanelDescriptor;
  readonly key: unknown;
  readonly host: WebviewHost;
  readonly controller: PanelController<unknown>;
}

export class PanelFrame implements vscode.Disposable {
  private readonly open = new Map<string, OpenPanel>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly services: PanelServices,
    descriptors: readonly PanelDescriptor[],
  ) {
    for (const descriptor of descriptors.filter((d) => d.restores)) {
      this.disposables.push(
        vscode.window.registerWebviewPanelSerializer(descriptor.viewType, {
          deserializeWebviewPanel: (panel, state) => this.restore(descriptor, panel, state),
        }),
      );
    }
    this.disposables.push(services.onDidChangeConnection(() => void this.pushConnection()));
  }

  /**
   * Reveals the panel showing `key`, or opens one. A preview (VS Code's preview-tab convention: a single click)
   * takes the place of the app's previous preview unless that one was pinned; showing a key again without
   * `preview` pins its panel (a double click). `preserveFocus` leaves the keyboard where it was.
   */
  async show<K>(descriptor: PanelDescriptor<K>, key: K, column: vscode.ViewColumn = vscode.ViewColumn.Active, options: { preview?: boolean; preserveFocus?: boolean } = {}): Promise<WebviewHost> {
    const [app, Host] = await Promise.all([descriptor.load(), loadWebviewHost()]);
    const id = this.instanceId(descriptor, app, key);
    const existing = this.open.get(id);
    if (existing) {
      if (!options.preview && this.previews.get(descriptor.app) === id) this.previews.delete(descriptor.app);
      existing.host.panel.reveal(undefined, options.preserveFocus);
      return existing.host;
    }
    let viewColumn = column;
    if (options.preview) {
      const previous = this.open.get(this.previews.get(descriptor.app) ?? '');
      if (previous) {
        viewColumn = previous.host.panel.viewColumn ?? column;
        previous.host.dispose();
      }
    }
    const panel = vscode.window.createWebviewPanel(descriptor.viewType, app.title(key), { viewColumn, preserveFocus: options.preserveFocus });
    const host = this.attach(Host, descriptor, app, panel, key);
    if (options.preview) this.previews.set(descriptor.app, id);
    return host;
  }

  /** The panel of each app shown as a preview (replaced by the next preview), by app. */
  private readonly previews = new Map<string, string>();

  /** Whether the panel showing `key` is its app's preview. */
  isPreview<K>(descriptor: PanelDescriptor<K>, host: WebviewHost): boolean {
    const id = this.previews.get(descriptor.app);
    return id !== undefined && this.open.get(id)?.host === host;
  }

  /** The open panels of an app (for notifications such as "this example changed on the server"). */
  panelsOf<K = unknown>(descriptor: Pick<PanelDescriptor<K>, 'app'>): { key: K; host: WebviewHost }[] {
    return [...this.open.values()].filter((p) => p.descriptor.app === descriptor.app).map((p) => ({ key: p.key as K, host: p.host }));
  }

  private async restore(descriptor: PanelDescriptor, panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const [app, Host] = await Promise.all([descriptor.load(), loadWebviewHost()]);
    const restore = typeof state === 'object' && state !== null ? (state as { restore?: unknown }).restore : undefined;
    const key = app.parseKey(restore);
    if (key === undefined) {
      this.services.log.warn(`A ${descriptor.app} panel could not be restored: its saved state is not usable.`);
      panel.dispose();
      return;
    }
    const id = this.instanceId(descriptor, app, key);
    this.open.get(id)?.host.dispose();
    this.attach(Host, descriptor, app, panel, key);
  }

  private instanceId<K>(descriptor: PanelDescriptor<K>, app: PanelApp<K>, key: K): string {
    return descriptor.instances === 'one' ? descriptor.app : `${descriptor.app}:${app.keyId(key)}`;
  }

  private attach<K>(Host: typeof WebviewHost, descriptor: PanelDescriptor<K>, app: PanelApp<K>, panel: vscode.WebviewPanel, key: K): WebviewHost {
    const id = this.instanceId(descriptor, app, key);
    const host = new Host(panel, this.services.extensionUri, { app: descriptor.app, title: app.title(key), hasCss: descriptor.hasCss }, this.services.log);
    panel.iconPath = vscode.Uri.joinPath(this.services.extensionUri, 'media', descriptor.icon);
    const controller = app.open({ host, key, services: this.services,
      setTitle: (title) => (panel.title = title),
      reopen: async () => void (await this.show(descriptor, key)),
    });
    host.router.onRequest(app.ready, async (_params, { signal }) => {
      const [connection, state] = await Promise.all([this.services.connection(), controller.state(signal)]);
      host.markListening();
      return { restore: key, connection, state };
    });
    this.open.set(id, { descriptor: descriptor as PanelDescriptor, key, host, controller: controller as PanelController<unknown> });
    host.onDidDispose(() => {
      controller.dispose?.();
      if (this.open.get(id)?.host === host) {
        this.open.delete(id);
        if (this.previews.get(descriptor.app) === id) this.previews.delete(descriptor.app);
      }
    });
    return host;
  }

  private async pushConnection(): Promise<void> {
    if (!this.open.size) return;
    const { ConnectionNotice } = await import('../protocol/messages');
    const connection = await this.services.connection();
    for (const { host } of this.open.values()) void host.notify(ConnectionNotice, connection);
  }

  /** Tells every open panel what changed (the frame subscribes to the change bus). */
  changed(what: Change): void {
    for (const p of this.open.values()) {
      try {
        p.controller.changed?.(what);
      } catch (err) {
        this.services.log.warn(`A panel could not take a change: ${String(err)}`);
      }
    }
  }

  dispose(): void {
    for (const p of [...this.open.values()]) p.host.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
