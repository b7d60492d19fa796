// The ground floor: every identifier the extension shares with package.json and across its rooms (command ids,
// context keys, view ids, the document scheme, setting keys). It imports nothing, and every
// room may import it; a unit test checks the command list against package.json.

export const Commands = {
  // Connection
  signIn: 'langsmith.signIn',
  signOut: 'langsmith.signOut',
  switchEndpoint: 'langsmith.switchEndpoint',
  showLog: 'langsmith.showLog',
  openHello: 'langsmith.openHello',
  // Views
  refreshProjects: 'langsmith.refreshProjects',
  refreshDatasets: 'langsmith.refreshDatasets',
  refreshPrompts: 'langsmith.refreshPrompts',
  refreshAnnotationQueues: 'langsmith.refreshAnnotationQueues',
  refreshItem: 'langsmith.refreshItem',
  loadMore: 'langsmith.loadMore',
  filterProjects: 'langsmith.filterProjects',
  toggleErrorsOnly: 'langsmith.toggleErrorsOnly',
  filterDatasets: 'langsmith.filterDatasets',
  searchPrompts: 'langsmith.searchPrompts',
  searchPublicPrompts: 'langsmith.searchPublicPrompts',
  // Items
  openRun: 'langsmith.openRun',
  openRuns: 'langsmith.openRuns',
  openTrace: 'langsmith.openTrace',
  openTraceById: 'langsmith.openTraceById',
  openSharedTrace: 'langsmith.openSharedTrace',
  openThread: 'langsmith.openThread',
  addRunToDataset: 'langsmith.addRunToDataset',
  openRunInPlayground: 'langsmith.openRunInPlayground',
  openExample: 'langsmith.openExample',
  openCommit: 'langsmith.openCommit',
  copyId: 'langsmith.copyId',
  openInLangSmith: 'langsmith.openInLangSmith',
  copyLink: 'langsmith.copyLink',
  // Annotation queues
  addRunsToQueue: 'langsmith.addRunsToQueue',
  removeRunFromQueue: 'langsmith.removeRunFromQueue',
  createQueue: 'langsmith.createQueue',
  deleteQueue: 'langsmith.deleteQueue',
  editQueue: 'langsmith.editQueue',
  reviewQueue: 'langsmith.reviewQueue',
  createFeedbackConfig: 'langsmith.createFeedbackConfig',
  editFeedbackConfig: 'langsmith.editFeedbackConfig',
  deleteFeedbackConfig: 'langsmith.deleteFeedbackConfig',
  // Feedback and experiments
  addFeedback: 'langsmith.addFeedback',
  showFeedback: 'langsmith.showFeedback',
  copyFeedbackLink: 'langsmith.copyFeedbackLink',
  compareExperiments: 'langsmith.compareExperiments',
  saveComparison: 'langsmith.saveComparison',
  compareDatasetExperiments: 'langsmith.compareDatasetExperiments',
  runPromptOverDataset: 'langsmith.runPromptOverDataset',
  // Sharing
  shareRun: 'langsmith.shareRun',
  unshareRun: 'langsmith.unshareRun',
  shareDataset: 'langsmith.shareDataset',
  unshareDataset: 'langsmith.unshareDataset',
  openPublicDataset: 'langsmith.openPublicDataset',
  // Projects and datasets
  createProject: 'langsmith.createProject',
  deleteProject: 'langsmith.deleteProject',
  renameProject: 'langsmith.renameProject',
  monitorProject: 'langsmith.monitorProject',
  createDataset: 'langsmith.createDataset',
  deleteDataset: 'langsmith.deleteDataset',
  // Dataset contents
  createDatasetFromCsv: 'langsmith.createDatasetFromCsv',
  renameDataset: 'langsmith.renameDataset',
  exportDatasetForFineTuning: 'langsmith.exportDatasetForFineTuning',
  tagDatasetVersion: 'langsmith.tagDatasetVersion',
  addExamplesToSplit: 'langsmith.addExamplesToSplit',
  removeExamplesFromSplit: 'langsmith.removeExamplesFromSplit',
  searchSimilarExamples: 'langsmith.searchSimilarExamples',
  createExample: 'langsmith.createExample',
  editExample: 'langsmith.editExample',
  compareDatasetVersions: 'langsmith.compareDatasetVersions',
  deleteExamples: 'langsmith.deleteExamples',
  // Prompts
  createPrompt: 'langsmith.createPrompt',
  deletePrompt: 'langsmith.deletePrompt',
  likePrompt: 'langsmith.likePrompt',
  unlikePrompt: 'langsmith.unlikePrompt',
  makePromptPublic: 'langsmith.makePromptPublic',
  makePromptPrivate: 'langsmith.makePromptPrivate',
  archivePrompt: 'langsmith.archivePrompt',
  unarchivePrompt: 'langsmith.unarchivePrompt',
  // Prompt files and commits
  pushPromptFile: 'langsmith.pushPromptFile',
  pullPrompt: 'langsmith.pullPrompt',
  compareWithRemote: 'langsmith.compareWithRemote',
  compareCommits: 'langsmith.compareCommits',
  tagCommit: 'langsmith.tagCommit',
  deleteCommitTag: 'langsmith.deleteCommitTag',
  promoteCommit: 'langsmith.promoteCommit',
  openCommitManifest: 'langsmith.openCommitManifest',
  importPrompty: 'langsmith.importPrompty',
  // Playground
  runPrompt: 'langsmith.runPrompt',
  configureModel: 'langsmith.configureModel',
  revealRun: 'langsmith.revealRun',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];

/** Context keys used in `when` clauses of package.json. */
export const ContextKeys = {
  signedIn: 'langsmith.signedIn',
  errorsOnly: 'langsmith.errorsOnly',
} as const;

/** The tree views (package.json contributes.views). */
export const ViewIds = {
  projects: 'langsmith.projects',
  datasets: 'langsmith.datasets',
  prompts: 'langsmith.prompts',
  annotationQueues: 'langsmith.annotationQueues',
} as const;

/** The scheme of the read-only documents of LangSmith objects (runs, examples, commits, drafts). */
export const SCHEME = 'langsmith';

/** The extension's settings (package.json contributes.configuration). */
export const ConfigKeys = {
  section: 'langsmith',
  endpoint: 'endpoint',
  workspaceId: 'workspaceId',
  /** OpenAI-compatible chat-completions base URL of the playground. */
  playgroundEndpoint: 'playground.endpoint',
  /** The model a run uses when the prompt names none. */
  playgroundModel: 'playground.model',
  /** The LangSmith project the playground traces to. */
  playgroundProject: 'playground.project',
} as const;
