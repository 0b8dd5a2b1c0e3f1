import {
  checkMaxItems,
  checkMaxLength,
  checkOptionalText,
  checkTextObject,
  isRecord,
  type Problems,
} from './block-kit-text.js';

const SELECTS = ['static', 'external', 'users', 'conversations', 'channels'].flatMap((kind) => [
  `${kind}_select`,
  `multi_${kind}_select`,
]);

/** Elements Slack knows; anything else in `elements`/`accessory`/`element` is refused. */
export const KNOWN_ELEMENT_TYPES = new Set([
  'button',
  'checkboxes',
  'datepicker',
  'datetimepicker',
  'email_text_input',
  'feedback_buttons',
  'file_input',
  'icon_button',
  'image',
  'number_input',
  'overflow',
  'plain_text_input',
  'radio_buttons',
  'rich_text_input',
  'timepicker',
  'url_text_input',
  'workflow_button',
  ...SELECTS,
]);

const PLACEHOLDER = { plainOnly: true, max: 150 } as const;

/** Checks one element; `actionIds` holds the action_ids already used in the same block. */
export function checkElement(
  element: unknown,
  pointer: string,
  problems: Problems,
  actionIds: Set<string>,
): void {
  if (!isRecord(element)) {
    problems.add(pointer, 'must provide an object');
    return;
  }
  const type = element.type;
  if (typeof type !== 'string' || !KNOWN_ELEMENT_TYPES.has(type)) {
    problems.add(`${pointer}/type`, `unsupported element type: ${String(type)}`);
    return;
  }
  checkActionId(element.action_id, `${pointer}/action_id`, problems, actionIds);
  ELEMENT_CHECKS[type]?.(element, pointer, problems);
  if (element.confirm !== undefined) checkConfirm(element.confirm, `${pointer}/confirm`, problems);
  if ('placeholder' in element)
    checkOptionalText(element.placeholder, `${pointer}/placeholder`, problems, PLACEHOLDER);
}

function checkActionId(actionId: unknown, pointer: string, problems: Problems, seen: Set<string>): void {
  if (actionId === undefined) return;
  checkMaxLength(actionId, 255, pointer, problems);
  if (typeof actionId !== 'string') return;
  if (seen.has(actionId)) problems.add(pointer, `duplicate action_id: ${actionId}`);
  seen.add(actionId);
}

type ElementCheck = (element: Record<string, unknown>, pointer: string, problems: Problems) => void;

const checkButton: ElementCheck = (element, pointer, problems) => {
  checkTextObject(element.text, `${pointer}/text`, problems, { plainOnly: true, max: 75 });
  checkMaxLength(element.value, 2000, `${pointer}/value`, problems);
  checkMaxLength(element.url, 3000, `${pointer}/url`, problems);
  if (element.style !== undefined && element.style !== 'primary' && element.style !== 'danger') {
    problems.add(`${pointer}/style`, 'must be one of: primary, danger');
  }
};

/**
 * Confirmation dialog object (docs.slack.dev/reference/block-kit/composition-objects/confirmation-dialog-object):
 * title, text, confirm and deny all required and all plain_text, at most 100, 300, 30 and 30 characters.
 */
function checkConfirm(confirm: unknown, pointer: string, problems: Problems): void {
  if (!isRecord(confirm)) {
    problems.add(pointer, 'must provide an object');
    return;
  }
  checkTextObject(confirm.title, `${pointer}/title`, problems, { plainOnly: true, max: 100 });
  checkTextObject(confirm.text, `${pointer}/text`, problems, { plainOnly: true, max: 300 });
  checkTextObject(confirm.confirm, `${pointer}/confirm`, problems, { plainOnly: true, max: 30 });
  checkTextObject(confirm.deny, `${pointer}/deny`, problems, { plainOnly: true, max: 30 });
  if (confirm.style !== undefined && confirm.style !== 'primary' && confirm.style !== 'danger') {
    problems.add(`${pointer}/style`, 'must be one of: primary, danger');
  }
}

function optionsCheck(max: number, plainOnly: boolean): ElementCheck {
  return (element, pointer, problems) => {
    if (element.options === undefined) return;
    if (!checkMaxItems(element.options, max, `${pointer}/options`, problems)) return;
    element.options.forEach((option, i) => {
      checkOption(option, `${pointer}/options/${i}`, problems, plainOnly);
    });
    checkInitialOptions(element, element.options, pointer, problems);
  };
}

/** Slack refuses an `initial_option` (or one of `initial_options`) that is not one of the element's options. */
function checkInitialOptions(
  element: Record<string, unknown>,
  options: unknown[],
  pointer: string,
  problems: Problems,
): void {
  const key = (o: unknown) =>
    isRecord(o) ? JSON.stringify([o.value, isRecord(o.text) ? [o.text.type, o.text.text] : null]) : '';
  const offered = new Set(options.map(key));
  if (element.initial_option !== undefined && !offered.has(key(element.initial_option))) {
    problems.add(`${pointer}/initial_option`, 'must match one of the options');
  }
  if (Array.isArray(element.initial_options)) {
    element.initial_options.forEach((o, i) => {
      if (!offered.has(key(o)))
        problems.add(`${pointer}/initial_options/${i}`, 'must match one of the options');
    });
  }
}

/**
 * number_input (docs.slack.dev/reference/block-kit/block-elements/number-input-element): is_decimal_allowed is
 * required; min_value must not exceed max_value, and initial_value must lie between them (whole unless decimals
 * are allowed).
 */
const checkNumberInput: ElementCheck = (element, pointer, problems) => {
  if (typeof element.is_decimal_allowed !== 'boolean') {
    problems.add(`${pointer}/is_decimal_allowed`, 'must provide a boolean');
  }
  const number = (key: string): number | undefined => {
    const raw = element[key];
    if (raw === undefined) return undefined;
    const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
    const whole = element.is_decimal_allowed === true || Number.isInteger(value);
    if (!Number.isFinite(value) || !whole) {
      problems.add(`${pointer}/${key}`, 'must be a number the input allows, as a string');
      return undefined;
    }
    return value;
  };
  const min = number('min_value');
  const max = number('max_value');
  const initial = number('initial_value');
  if (min !== undefined && max !== undefined && min > max) {
    problems.add(`${pointer}/min_value`, 'must be less than or equal to max_value');
  }
  if (
    initial !== undefined &&
    ((min !== undefined && initial < min) || (max !== undefined && initial > max))
  ) {
    problems.add(`${pointer}/initial_value`, 'must be between min_value and max_value');
  }
};

function checkOption(option: unknown, pointer: string, problems: Problems, plainOnly: boolean): void {
  if (!isRecord(option)) {
    problems.add(pointer, 'must provide an object');
    return;
  }
  checkTextObject(option.text, `${pointer}/text`, problems, { plainOnly, max: 75 });
  if (typeof option.value !== 'string') problems.add(`${pointer}/value`, 'must provide a string');
  checkMaxLength(option.value, 150, `${pointer}/value`, problems);
  checkOptionalText(option.description, `${pointer}/description`, problems, { plainOnly, max: 75 });
}

const checkImageElement: ElementCheck = (element, pointer, problems) => {
  if (element.image_url === undefined && element.slack_file === undefined) {
    problems.add(pointer, 'must provide image_url or slack_file');
  }
  checkMaxLength(element.image_url, 3000, `${pointer}/image_url`, problems);
  if (typeof element.alt_text !== 'string') problems.add(`${pointer}/alt_text`, 'must provide a string');
};

/**
 * plain_text_input: `max_length` 1 to 3,000 and `min_length` 0 to 3,000 (docs.slack.dev/reference/block-kit/
 * block-elements/plain-text-input-element; node-slack-sdk#940 shows the refusal above 3,000). Slack documents no
 * limit for `initial_value` (slack-wrench#106: Slack's Block Kit team confirmed none), so none is invented here.
 */
const checkTextInput: ElementCheck = (element, pointer, problems) => {
  const { max_length: max, min_length: min } = element;
  checkIntegerIn(max, 1, 3000, `${pointer}/max_length`, problems);
  checkIntegerIn(min, 0, 3000, `${pointer}/min_length`, problems);
  if (typeof max === 'number' && typeof min === 'number' && min > max) {
    problems.add(`${pointer}/min_length`, 'must be less than or equal to max_length');
  }
  if (element.initial_value !== undefined && typeof element.initial_value !== 'string') {
    problems.add(`${pointer}/initial_value`, 'must provide a string');
  }
};

function checkIntegerIn(value: unknown, min: number, max: number, pointer: string, problems: Problems): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value)) problems.add(pointer, 'must provide an integer');
  else if (value > max) problems.add(pointer, `must be less than or equal to ${max}`);
  else if (value < min) problems.add(pointer, `must be greater than or equal to ${min}`);
}

/**
 * file_input (docs.slack.dev/reference/block-kit/block-elements/file-input-element): max_files 1 to 10 (default
 * 10); filetypes a list of extensions, which Slack does not enforce, so the app must check what it gets.
 */
const checkFileInput: ElementCheck = (element, pointer, problems) => {
  checkIntegerIn(element.max_files, 1, 10, `${pointer}/max_files`, problems);
  if (element.filetypes !== undefined) {
    const types = element.filetypes;
    if (!Array.isArray(types) || types.some((t) => typeof t !== 'string')) {
      problems.add(`${pointer}/filetypes`, 'must provide an array of strings');
    }
  }
};

const ELEMENT_CHECKS: Record<string, ElementCheck> = {
  file_input: checkFileInput,
  button: checkButton,
  workflow_button: checkButton,
  image: checkImageElement,
  plain_text_input: checkTextInput,
  number_input: checkNumberInput,
  overflow: optionsCheck(5, true),
  checkboxes: optionsCheck(10, false),
  radio_buttons: optionsCheck(10, false),
  static_select: optionsCheck(100, true),
  multi_static_select: optionsCheck(100, true),
};
