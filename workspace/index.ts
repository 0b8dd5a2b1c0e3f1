export { checkBlocks, KNOWN_BLOCK_TYPES, MAX_BLOCKS, type Surface } from './block-kit/block-kit-limits.js';
export { checkMessageContent, MAX_MESSAGE_TEXT } from './block-kit/message-limits.js';
export type { LooseStateValues } from './block-kit/state-values.js';
export { checkView } from './block-kit/view-limits.js';
export type {
  BlockActionInput,
  BlockActionResult,
  BotTransport,
  DeliveryOptions,
  DriverResponse,
  EventDelivery,
  FunctionExecutedInput,
  FunctionExecutedResult,
  SlackDriver,
  SlackDriverOptions,
  SlashCommandInput,
  SlashCommandResult,
  UserMessageInput,
  UserMessageResult,
  ViewClosedInput,
  ViewClosedResult,
  ViewSubmissionInput,
  ViewSubmissionResult,
} from './driver/driver-types.js';
export { type Signing, slackSignature } from './driver/signing.js';
export { ACK_DEADLINE_MS, createSlackDriver, EVENT_RETRY_DELAYS_MS } from './driver/slack-driver.js';
export type { ViewAckOutcome } from './driver/view-ack.js';
export {
  createLocalWorkspace,
  LOCAL_USER_ID,
  type LocalWorkspace,
  type LocalWorkspaceOptions,
} from './local.js';
export { type Clock, compareTs, systemClock } from './state/clock.js';
export { Directory, imIdFor } from './state/directory.js';
export type { ExecutionState, FunctionExecution } from './state/functions.js';
export type { JournalEntry, WaitOptions } from './state/journal.js';
export type {
  AnyBlock,
  ApiCall,
  Channel,
  EphemeralMessage,
  FileSummary,
  ResponseUrlPost,
  SlackMessage,
  StateValues,
  StoredFile,
  User,
  View,
  ViewOutput,
  WorkspaceEventKind,
  WorkspaceEventMap,
  WorkspaceIdentity,
} from './state/model.js';
export type { ResponseTarget } from './state/response-urls.js';
export { DEFAULT_IDENTITY, SEEDED } from './state/seed.js';
export { TRIGGER_LIFETIME_MS } from './state/triggers.js';
export { MAX_MODAL_STACK } from './state/view-store.js';
export { WorkspaceState, type WorkspaceStateOptions } from './state/workspace-state.js';
export { SlackApiError } from './web-api/api-error.js';
export {
  type AppManifest,
  appManifest,
  type FunctionDefinition,
  type FunctionParameter,
  parseAppManifest,
} from './web-api/app-manifest.js';
export type { FaultSpec } from './web-api/faults.js';
export type { RateLimitOptions } from './web-api/rate-limiter.js';
export { type FakeSlack, type FakeSlackOptions, startFakeSlack } from './web-api/slack-api.js';
export {
  createSlackRoutes,
  type SlackRoutes,
  type SlackRoutesOptions,
  type SlackSide,
} from './web-api/slack-routes.js';
