import type { StateValues, ViewOutput, ViewStateValue } from '../state/model.js';
import { elementsOf } from './block-ids.js';

type Loose = Record<string, unknown>;

/** A value as a test (or the local UI) gives it: the full Slack shape, or just the string the user typed/picked. */
export type LooseStateValues = Record<string, Record<string, ViewStateValue | string | string[]>>;

/**
 * Slack's `view.state.values` for a submission: one entry per input element in the view (null when left empty),
 * with shorthand strings expanded according to each element's type.
 */
export interface StateValueOptions {
  /** A file as Slack sends it in a file_input's state, by id (undefined: no such file). */
  fileObject?: (fileId: string) => Record<string, unknown> | undefined;
}

export function buildStateValues(
  view: ViewOutput,
  given: LooseStateValues = {},
  options: StateValueOptions = {},
): StateValues {
  const values: StateValues = {};
  for (const block of view.blocks as unknown as Loose[]) {
    const blockId = block.block_id as string;
    for (const element of elementsOf(block)) {
      if (block.type !== 'input' && !(blockId in given)) continue;
      const actionId = element.action_id as string | undefined;
      if (!actionId || !isStateful(element)) continue;
      const supplied = given[blockId]?.[actionId];
      values[blockId] ??= {};
      values[blockId][actionId] = expand(element, supplied, options);
    }
  }
  for (const [blockId, actions] of Object.entries(given)) {
    for (const actionId of Object.keys(actions)) {
      if (values[blockId]?.[actionId]) continue;
      throw new Error(`view ${view.id} has no input ${blockId}/${actionId}; cannot submit a value for it`);
    }
  }
  return values;
}

function isStateful(element: Loose): boolean {
  return !['button', 'overflow', 'image', 'workflow_button', 'icon_button'].includes(String(element.type));
}

/** What Slack submits for an input the user left alone: its initial value, as it shows on screen. */
function initialOf(element: Loose): string | string[] | undefined {
  if (typeof element.initial_value === 'string') return element.initial_value;
  const option = element.initial_option as { value?: string } | undefined;
  if (option?.value !== undefined) return option.value;
  const options = element.initial_options as { value: string }[] | undefined;
  if (options) return options.map((o) => o.value);
  for (const key of [
    'initial_date',
    'initial_time',
    'initial_user',
    'initial_conversation',
    'initial_channel',
  ]) {
    if (typeof element[key] === 'string') return element[key] as string;
  }
  if (Array.isArray(element.initial_users)) return element.initial_users as string[];
  if (typeof element.initial_date_time === 'number') return String(element.initial_date_time);
  return undefined;
}

function expand(
  element: Loose,
  given: ViewStateValue | string | string[] | undefined,
  options: StateValueOptions,
): ViewStateValue {
  const supplied = given === undefined ? initialOf(element) : given;
  const type = String(element.type);
  if (supplied !== undefined && typeof supplied === 'object' && !Array.isArray(supplied)) return supplied;
  if (type === 'file_input') return filesOf(element, asList(supplied), options);
  const expander = EXPANDERS[type];
  if (expander) return expander(element, supplied);
  return { type, value: typeof supplied === 'string' ? supplied : null };
}

type Expander = (element: Loose, supplied: string | string[] | undefined) => ViewStateValue;

/**
 * A file_input's state as Slack sends it: `files`, the file objects the person uploaded (id, name, mimetype,
 * filetype, size, url_private, url_private_download, …), at most max_files of them (default 10).
 */
function filesOf(element: Loose, ids: string[], options: StateValueOptions): ViewStateValue {
  const max = typeof element.max_files === 'number' ? element.max_files : 10;
  if (ids.length > max) {
    throw new Error(
      `${String(element.action_id)} takes at most ${max} files (max_files); Slack would not submit ${ids.length}`,
    );
  }
  const files = ids.map((id) => {
    const file = options.fileObject?.(id);
    if (!file) throw new Error(`no uploaded file ${id} for ${String(element.action_id)}`);
    return file;
  });
  return { type: 'file_input', files } as unknown as ViewStateValue;
}

function optionFor(element: Loose, value: string) {
  const options = (element.options as Loose[] | undefined) ?? [];
  const option = options.find((o) => o.value === value);
  if (!option) throw new Error(`${String(element.action_id)} has no option with value ${value}`);
  return { text: option.text as { type: 'plain_text'; text: string }, value };
}

function asList(supplied: string | string[] | undefined): string[] {
  if (supplied === undefined) return [];
  return Array.isArray(supplied) ? supplied : [supplied];
}

/**
 * Slack's client takes no more than `max_length` characters, typed or pasted, and shows an error instead of
 * submitting a longer (prefilled) value: a test that hands one over is asking for what no user can do.
 */
function textWithin(element: Loose, supplied: string | string[] | undefined): string | null {
  if (typeof supplied !== 'string') return null;
  const max = element.max_length;
  if (typeof max === 'number' && [...supplied].length > max) {
    throw new Error(
      `${String(element.action_id)} takes at most ${max} characters (max_length); Slack would not submit ${[...supplied].length}`,
    );
  }
  return supplied;
}

const EXPANDERS: Record<string, Expander> = {
  plain_text_input: (e, s) => ({ type: 'plain_text_input', value: textWithin(e, s) }),
  static_select: (e, s) => ({
    type: 'static_select',
    selected_option: typeof s === 'string' ? optionFor(e, s) : null,
  }),
  radio_buttons: (e, s) => ({
    type: 'radio_buttons',
    selected_option: typeof s === 'string' ? optionFor(e, s) : null,
  }),
  multi_static_select: (e, s) => ({
    type: 'multi_static_select',
    selected_options: asList(s).map((v) => optionFor(e, v)),
  }),
  checkboxes: (e, s) => ({ type: 'checkboxes', selected_options: asList(s).map((v) => optionFor(e, v)) }),
  datepicker: (_e, s) => ({ type: 'datepicker', selected_date: typeof s === 'string' ? s : null }),
  timepicker: (_e, s) => ({ type: 'timepicker', selected_time: typeof s === 'string' ? s : null }),
  // UNIX seconds, as Slack sends them: the user picked a date and time in their own zone.
  datetimepicker: (_e, s) => ({
    type: 'datetimepicker',
    selected_date_time: typeof s === 'string' && /^\d+$/.test(s) ? Number(s) : null,
  }),
  users_select: (_e, s) => ({ type: 'users_select', selected_user: typeof s === 'string' ? s : null }),
  conversations_select: (_e, s) => ({
    type: 'conversations_select',
    selected_conversation: typeof s === 'string' ? s : null,
  }),
  channels_select: (_e, s) => ({
    type: 'channels_select',
    selected_channel: typeof s === 'string' ? s : null,
  }),
  multi_users_select: (_e, s) => ({ type: 'multi_users_select', selected_users: asList(s) }),
};
