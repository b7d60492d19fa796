// Every panel's host side in one bundle of its own (dist/panels.js), loaded when the first panel opens or is
// restored: activation registers the descriptors (descriptors.ts) without any of this. Modules it shares with
// the workbench are in shared bundles it requires (see esbuild.mjs), so each exists once.
export { helloApp } from './hello/helloPanel';
export { exampleEditorApp } from './exampleEditor/exampleEditorPanel';
export { datasetDiffApp } from './datasetDiff/datasetDiffPanel';
export { promptCommitApp } from './promptCommit/promptCommitPanel';
export { traceApp } from './trace/tracePanel';
export { reviewApp } from './review/reviewPanel';
export { playgroundApp } from './playground/playgroundPanel';
export { compareApp } from './compare/comparePanel';
export { monitorApp } from './monitor/monitorPanel';
export { queueSettingsApp } from './queueSettings/queueSettingsPanel';
export { runsApp } from './runs/runsPanel';
