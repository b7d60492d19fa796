// One descriptor per webview app: what sets it apart, for the panel frame (panels.ts) to create, track, reveal
// and restore its panels. The app's code (its host controller in src/webviews/<app>/, its protocol schemas) is
// loaded only when a panel of it opens or is restored, so activation registers the serializers without loading
// any of it.
import { definePanel } from './panels';

export const Panels = {
  hello: definePanel({ app: 'hello', instances: 'one', load: () => import('./hello/helloPanel').then((m) => m.helloApp) }),
  exampleEditor: definePanel({ app: 'exampleEditor', instances: 'perKey', load: () => import('./exampleEditor/exampleEditorPanel').then((m) => m.exampleEditorApp) }),
  datasetDiff: definePanel({ app: 'datasetDiff', instances: 'perKey', load: () => import('./datasetDiff/datasetDiffPanel').then((m) => m.datasetDiffApp) }),
  promptCommit: definePanel({ app: 'promptCommit', instances: 'perKey', load: () => import('./promptCommit/promptCommitPanel').then((m) => m.promptCommitApp) }),
  trace: definePanel({ app: 'trace', instances: 'perKey', load: () => import('./trace/tracePanel').then((m) => m.traceApp) }),
  review: definePanel({ app: 'review', instances: 'perKey', load: () => import('./review/reviewPanel').then((m) => m.reviewApp) }),
  playground: definePanel({ app: 'playground', instances: 'perKey', load: () => import('./playground/playgroundPanel').then((m) => m.playgroundApp) }),
  compare: definePanel({ app: 'compare', instances: 'perKey', load: () => import('./compare/comparePanel').then((m) => m.compareApp) }),
  queueSettings: definePanel({ app: 'queueSettings', instances: 'perKey', load: () => import('./queueSettings/queueSettingsPanel').then((m) => m.queueSettingsApp) }),
};
