// One descriptor per webview app: what sets it apart, for the panel frame (panels.ts) to create, track, reveal
// and restore its panels. The apps' code (their host controllers in src/webviews/<app>/, bundled together as
// dist/panels.js) is loaded only when a panel opens or is restored, so activation registers the serializers
// without loading any of it.
import { definePanel } from './panels';
import { bundleLoader } from '../common/lazy';

/** The panels' host code (dist/panels.js), loaded once for all of them. */
const apps = bundleLoader('panels.js', () => import('./panelApps'));

export const Panels = {
  hello: definePanel({ app: 'hello', instances: 'one', load: () => apps().then((m) => m.helloApp) }),
  exampleEditor: definePanel({ app: 'exampleEditor', instances: 'perKey', load: () => apps().then((m) => m.exampleEditorApp) }),
  datasetDiff: definePanel({ app: 'datasetDiff', instances: 'perKey', load: () => apps().then((m) => m.datasetDiffApp) }),
  promptCommit: definePanel({ app: 'promptCommit', instances: 'perKey', load: () => apps().then((m) => m.promptCommitApp) }),
  trace: definePanel({ app: 'trace', instances: 'perKey', load: () => apps().then((m) => m.traceApp) }),
  review: definePanel({ app: 'review', instances: 'perKey', load: () => apps().then((m) => m.reviewApp) }),
  playground: definePanel({ app: 'playground', instances: 'perKey', load: () => apps().then((m) => m.playgroundApp) }),
  compare: definePanel({ app: 'compare', instances: 'perKey', load: () => apps().then((m) => m.compareApp) }),
  runs: definePanel({ app: 'runs', instances: 'perKey', load: () => apps().then((m) => m.runsApp) }),
  monitor: definePanel({ app: 'monitor', instances: 'perKey', load: () => apps().then((m) => m.monitorApp) }),
  queueSettings: definePanel({ app: 'queueSettings', instances: 'perKey', load: () => apps().then((m) => m.queueSettingsApp) }),
};
