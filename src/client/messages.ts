/**
 * Every user-facing message of the client, in one place, so tests and the README can refer to them.
 * The texts are those of the client specification (and, where it abbreviates, LangSmith's own wording).
 */
export const MSG = {
  invalidUuid: (which: string, value: unknown) => `Invalid UUID for ${which}: ${String(value)}`,
  datasetIdOrName: 'Must provide either datasetName or datasetId',
  datasetIdAndName: 'Must provide either datasetName or datasetId, not both',
  projectIdOrName: 'Must provide projectName or projectId',
  projectIdAndName: 'Must provide either projectName or projectId, not both',
  asOfXorTag: 'Exactly one of asOf and tag must be specified.',
  runOrProjectMissing: 'One of runId or projectId must be provided',
  runAndProject: 'Only one of runId or projectId can be provided',
  experimentRequired: 'At least one experiment is required',
  referenceDatasetRequired: 'A reference dataset is required',
  noValidUpdateOptions: 'No valid update options provided',
  promptMissing: 'Prompt does not exist, you must create it first.',
  otherTenant: (action: string, current: string | null | undefined, requested: string) =>
    `Cannot ${action} for another tenant.\nCurrent tenant: ${current ?? ''}\nRequested tenant: ${requested}`,
  publicPromptNeedsHandle: 'Cannot create a public prompt without first creating a LangChain Hub handle.',
  invalidPublicDataset: (value: string) => `Invalid public dataset URL or token: ${value}`,
  invalidPublicRun: (value: string) => `Invalid public run URL or token: ${value}`,
  unclosedBrace: "Unclosed '{' in template.",
  singleBrace: "Single '}' in template.",
  missingFStringInput: (name: string) => `(f-string) Missing value for input ${name}`,
  invalidTemplateFormat: (format: unknown) =>
    `Invalid template format. Got \`${String(format)}\`; should be one of f-string,mustache`,
  timeoutPositive: 'Timeout must be positive.',
  recursionLimit: (limit: number) =>
    `Recursion limit of ${limit} reached: runnable calls nested more than ${limit} deep. Raise recursionLimit in the call's config if the chain is meant to go deeper.`,
  recursionLimitInvalid: (limit: unknown) => `recursionLimit must be a positive integer, got ${String(limit)}`,
  sessionIdRequired: 'A history-wrapped chain requires a sessionId: pass it as configurable.sessionId in the call\'s config.',
  projectNotFound: (id: string | undefined, name: string | undefined) => `Project[id=${id}, name=${name}] not found`,
  datasetNotFound: (id: string | undefined, name: string | undefined) => `Dataset[id=${id}, name=${name}] not found`,
  traceNotFound: (traceId: string, projectId?: string) =>
    projectId === undefined ? `Trace ${traceId} not found` : `Trace ${traceId} not found in project ${projectId}`,
  invalidThreadId: (value: unknown) => `Invalid thread id: ${String(value)}`,
  threadNotFound: (threadId: string, projectId: string) => `Thread ${threadId} not found in project ${projectId}`,
  multipartUnsupported:
    'Your LangSmith deployment does not allow using the multipart examples endpoint, please upgrade your deployment to the latest version.',
  invalidShareResponse: 'Invalid response from server',
  noProjectsForTenant: 'No projects found to resolve tenant.',
  unspecifiedError: 'Unspecified error',
  latestCommitError: (status: number, statusText: string, detail: string) => `Error ${status}: ${statusText}\n${detail}`,
  invalidPromptIdentifier: (identifier: string) =>
    `Invalid prompt identifier format: "${identifier}". Use "name", "owner/name", "name:commit" or "owner/name:commit".`,
} as const;
