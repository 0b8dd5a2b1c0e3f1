// The storage module: everything the app remembers goes through here, and no SQL lives elsewhere.
export { StoreOpenError, StoreUnavailableError } from './errors.js';
export { openStore } from './open.js';
export type * from './types.js';
export { maskUrl } from './url.js';
