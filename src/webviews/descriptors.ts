// One descriptor per webview app: everything the panel frame (panels.ts) needs to create, track, reveal and
// restore its panels. The app's code (its host controller, its protocol schemas) is loaded only when a panel
// of it opens or is restored, so activation registers the serializers without loading any of it.
import { ViewTypes } from '../constants';
import type { PanelApp } from './panels';

export interface PanelDescriptor {
  /** The app's name: its bundle (dist/webviews/<app>.js), its protocol scope and its host controller. */
  readonly app: string;
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
  readonly load: () => Promise<PanelApp<unknown>>;
}

export const Panels = {
  hello: {
    app: 'hello',
    viewType: ViewTypes.hello,
    icon: 'langsmith.svg',
    hasCss: true,
    restores: true,
    instances: 'one',
    load: () => import('./hello/helloPanel').then((m) => m.helloApp as PanelApp<unknown>),
  },
  exampleEditor: {
    app: 'exampleEditor',
    viewType: ViewTypes.exampleEditor,
    icon: 'langsmith.svg',
    hasCss: true,
    restores: true,
    instances: 'perKey',
    load: () => import('./exampleEditor/exampleEditorPanel').then((m) => m.exampleEditorApp as PanelApp<unknown>),
  },
  datasetDiff: {
    app: 'datasetDiff',
    viewType: ViewTypes.datasetDiff,
    icon: 'langsmith.svg',
    hasCss: true,
    restores: true,
    instances: 'perKey',
    load: () => import('./datasetDiff/datasetDiffPanel').then((m) => m.datasetDiffApp as PanelApp<unknown>),
  },
  promptCommit: {
    app: 'promptCommit',
    viewType: ViewTypes.promptCommit,
    icon: 'langsmith.svg',
    hasCss: true,
    restores: true,
    instances: 'perKey',
    load: () => import('./promptCommit/promptCommitPanel').then((m) => m.promptCommitApp as PanelApp<unknown>),
  },
  playground: {
    app: 'playground',
    viewType: ViewTypes.playground,
    icon: 'langsmith.svg',
    hasCss: true,
    restores: true,
    instances: 'perKey',
    load: () => import('./playground/playgroundPanel').then((m) => m.playgroundApp as PanelApp<unknown>),
  },
} as const satisfies Record<string, PanelDescriptor>;
