export { SlackApiError } from './api-error.js';
export { checkBlocks, KNOWN_BLOCK_TYPES, MAX_BLOCKS, type Surface } from './block-kit-limits.js';
export { type Clock, compareTs, systemClock } from './clock.js';
export { Directory, imIdFor } from './directory.js';
export type {
  BlockActionInput,
  BlockActionResult,
  DeliveryOptions,
  DriverResponse,
  SlackDriver,
  SlackDriverOptions,
  SlashCommandInput,
  SlashCommandResult,
  UserMessageInput,
  ViewClosedInput,
  ViewClosedResult,
  ViewSubmissionInput,
  ViewSubmissionResult,
} from './driver-types.js';
export type { FaultSpec } from './faults.js';
export type { JournalEntry, WaitOptions } from './journal.js';
export {
  createLocalWorkspace,
  LOCAL_USER_ID,
  type LocalWorkspace,
  type LocalWorkspaceOptions,
} from './local.js';
export { checkMessageContent, MAX_MESSAGE_TEXT } from './message-limits.js';
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
} from './model.js';
export type { RateLimitOptions } from './rate-limiter.js';
export type { ResponseTarget } from './response-urls.js';
export { DEFAULT_IDENTITY, SEEDED } from './seed.js';
export { type Signing, slackSignature } from './signing.js';
export { type FakeSlack, type FakeSlackOptions, startFakeSlack } from './slack-api.js';
export { ACK_DEADLINE_MS, createSlackDriver } from './slack-driver.js';
export {
  createSlackRoutes,
  type SlackRoutes,
  type SlackRoutesOptions,
  type SlackSide,
} from './slack-routes.js';
export type { LooseStateValues } from './state-values.js';
export { TRIGGER_LIFETIME_MS } from './triggers.js';
export type { ViewAckOutcome } from './view-ack.js';
export { checkView } from './view-limits.js';
export { MAX_MODAL_STACK } from './view-store.js';
export { WorkspaceState, type WorkspaceStateOptions } from './workspace-state.js';
