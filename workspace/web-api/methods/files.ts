import { checkMessageContent } from '../../block-kit/message-limits.js';
import type { FileSummary, StoredFile } from '../../state/model.js';
import { SlackApiError } from '../api-error.js';
import { presentFile } from '../presenters.js';
import {
  botAuthor,
  type MethodHandler,
  optionalString,
  postableConversation,
  requiredString,
} from './context.js';

export const UPLOAD_PATH = '/upload/';
const MAX_ALT_TXT = 1000;

const getUploadURLExternal: MethodHandler = (ctx) => {
  const filename = requiredString(ctx.args, 'filename');
  const length = Number(requiredString(ctx.args, 'length'));
  if (!Number.isInteger(length) || length < 0) {
    throw new SlackApiError('invalid_arguments', ['[ERROR] length must be a non-negative integer']);
  }
  // Slack documents alt_txt (docs.slack.dev/reference/methods/files.getUploadURLExternal), at most 1,000
  // characters; any other name, alt_text included, is an argument Slack does not know and ignores.
  const altText = optionalString(ctx.args, 'alt_txt');
  if (altText !== undefined && altText.length > MAX_ALT_TXT) throw new SlackApiError('alt_txt_too_large');
  const file = ctx.state.files.reserve({
    filename,
    length,
    uploader: ctx.state.identity.botUserId,
    ...(altText ? { altText } : {}),
  });
  return { upload_url: `${ctx.baseUrl}${UPLOAD_PATH}${file.id}`, file_id: file.id };
};

interface FileRef {
  id: string;
  title?: string;
}

function fileRefs(value: unknown): FileRef[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new SlackApiError('invalid_arguments', ['[ERROR] files must be a non-empty JSON array']);
  }
  return value.map((ref) => {
    if (typeof ref !== 'object' || ref === null || typeof (ref as FileRef).id !== 'string') {
      throw new SlackApiError('invalid_arguments', ['[ERROR] each file needs an id']);
    }
    return ref as FileRef;
  });
}

function summary(file: StoredFile): FileSummary {
  const { id, name, title, mimetype, filetype, size, user } = file;
  return { id, name, title, mimetype, filetype, size, user };
}

/** Completes uploads and, given a channel, shares them there as one message, the way Slack shows a file share. */
const completeUploadExternal: MethodHandler = (ctx) => {
  const refs = fileRefs(ctx.args.files);
  const channelRef =
    optionalString(ctx.args, 'channel_id') ?? optionalString(ctx.args, 'channels')?.split(',')[0];
  const channel = channelRef === undefined ? undefined : postableConversation(ctx, channelRef);
  const comment = checkMessageContent(
    { text: optionalString(ctx.args, 'initial_comment'), blocks: ctx.args.blocks },
    { allowEmpty: true },
  );
  for (const ref of refs) {
    const file = ctx.state.files.get(ref.id);
    if (!file?.uploaded) throw new SlackApiError('file_not_found');
  }
  const files = refs.map((ref) => ctx.state.files.complete(ref.id, ref.title, channel?.id));
  if (channel) {
    const threadTs = optionalString(ctx.args, 'thread_ts');
    ctx.state.messages.post({
      channel: channel.id,
      ...botAuthor(ctx),
      text: comment.text ?? '',
      ...(comment.blocks ? { blocks: comment.blocks } : {}),
      files: files.map(summary),
      ...(threadTs ? { thread_ts: threadTs } : {}),
    });
  }
  return { files: files.map((f) => presentFile(f, ctx.baseUrl)) };
};

/** files.info (scope files:read): the file object, with its url_private links. */
const info: MethodHandler = (ctx) => {
  const file = ctx.state.files.get(requiredString(ctx.args, 'file', 'file_not_found'));
  if (!file?.completed) throw new SlackApiError('file_not_found');
  return { file: presentFile(file, ctx.baseUrl), comments: [], response_metadata: { next_cursor: '' } };
};

export const fileMethods: Record<string, MethodHandler> = {
  'files.info': info,
  'files.getUploadURLExternal': getUploadURLExternal,
  'files.completeUploadExternal': completeUploadExternal,
};
