export { STATUS_CODES, type StatusName } from './codes.js';
export {
  DEFAULT_INITIAL_BALANCE,
  DEFAULT_PRICE_PER_SEGMENT,
  DEFAULT_SIMULATOR_PORT,
  type SimulatorHandle,
  type SimulatorOptions,
  type SimulatorStateSnapshot,
  startSimulator,
} from './server.js';
export type { BatchState, RecipientState } from './types.js';
