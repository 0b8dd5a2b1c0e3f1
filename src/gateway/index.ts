export { GatewayClient, type GatewayClientOptions, type RetryPolicy } from './client.js';
export {
  GatewayError,
  GatewayRejected,
  GatewayRequestInvalid,
  GatewayUnavailable,
  type UnavailableReason,
} from './errors.js';
export { type GatewayHealth, type GatewayHealthReason, gatewayProbe, healthReasonOf } from './health.js';
export { formatGatewayTime, parseGatewayTime } from './time.js';
export type * from './types.js';
