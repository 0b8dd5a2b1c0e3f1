import { chatMethods } from './chat.js';
import type { MethodHandler } from './context.js';
import { conversationMethods } from './conversations.js';
import { fileMethods } from './files.js';
import { functionMethods } from './functions.js';
import { identityMethods } from './identity.js';
import { viewMethods } from './views.js';

export type { MethodContext, MethodHandler } from './context.js';
export { UPLOAD_PATH } from './files.js';

/** Every Web API method the fake implements; anything else is `unknown_method`, as in Slack. */
export const METHODS: Readonly<Record<string, MethodHandler>> = {
  ...identityMethods,
  ...chatMethods,
  ...conversationMethods,
  ...viewMethods,
  ...fileMethods,
  ...functionMethods,
};
