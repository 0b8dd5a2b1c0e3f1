// Block Kit and mrkdwn to HTML for the local workspace page. Pure functions over strings: every piece of text
// is HTML-escaped on the way out, and only http(s), mailto and tel links become anchors.
import { EMOJI_SVG } from './emoji.js';

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value) {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Slack encodes exactly these three in message text. */
export function decodeEntities(text) {
  return String(text ?? '').replace(/&(amp|lt|gt);/g, (_, name) => ({ amp: '&', lt: '<', gt: '>' })[name]);
}

/** The emoji the app uses, and the ones people type most; anything else stays as :name:, as Slack shows it. */
export const EMOJI = {
  white_check_mark: '✅',
  heavy_check_mark: '✔️',
  x: '❌',
  warning: '⚠️',
  no_entry: '⛔',
  no_entry_sign: '🚫',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  information_source: 'ℹ️',
  grey_question: '❔',
  question: '❓',
  exclamation: '❗',
  test_tube: '🧪',
  satellite_antenna: '📡',
  large_green_circle: '🟢',
  red_circle: '🔴',
  white_circle: '⚪',
  large_blue_circle: '🔵',
  large_yellow_circle: '🟡',
  arrow_up: '⬆️',
  arrow_down: '⬇️',
  arrow_right: '➡️',
  boom: '💥',
  star: '⭐',
  wastebasket: '🗑️',
  chart_with_upwards_trend: '📈',
  chart_with_downwards_trend: '📉',
  bar_chart: '📊',
  envelope: '✉️',
  incoming_envelope: '📨',
  email: '📧',
  iphone: '📱',
  calling: '📲',
  speech_balloon: '💬',
  bell: '🔔',
  moneybag: '💰',
  money_with_wings: '💸',
  credit_card: '💳',
  calendar: '📅',
  date: '📅',
  clock1: '🕐',
  alarm_clock: '⏰',
  memo: '📝',
  pencil: '📝',
  pencil2: '✏️',
  clipboard: '📋',
  bookmark_tabs: '📑',
  mag: '🔍',
  lock: '🔒',
  key: '🔑',
  bust_in_silhouette: '👤',
  busts_in_silhouette: '👥',
  wave: '👋',
  thumbsup: '👍',
  '+1': '👍',
  thumbsdown: '👎',
  '-1': '👎',
  tada: '🎉',
  rocket: '🚀',
  fire: '🔥',
  eyes: '👀',
  zap: '⚡',
  robot_face: '🤖',
  gear: '⚙️',
  link: '🔗',
  inbox_tray: '📥',
  outbox_tray: '📤',
  package: '📦',
  stopwatch: '⏱️',
  repeat: '🔁',
  arrows_counterclockwise: '🔄',
  heavy_plus_sign: '➕',
  heavy_minus_sign: '➖',
  smile: '😄',
  slightly_smiling_face: '🙂',
  pray: '🙏',
  point_right: '👉',
  bulb: '💡',
  sparkles: '✨',
  large_orange_diamond: '🔶',
  small_blue_diamond: '🔹',
  black_small_square: '▪️',
  white_small_square: '▫️',
  rotating_light: '🚨',
  no_bell: '🔕',
  newspaper: '📰',
  zzz: '💤',
  ballot_box_with_check: '☑️',
  ballot_box_with_ballot: '🗳️',
};

/** Replaces :shortcodes: in already-escaped HTML. */
export function emojify(html) {
  return html.replace(/:([a-z0-9_+-]+):/g, (whole, name) => {
    if (EMOJI_SVG[name]) {
      return `<span class="emoji emoji-img" role="img" aria-label=":${name}:" title=":${name}:">${EMOJI_SVG[name]}</span>`;
    }
    // data-name: what the page shows instead where the browser has no colour emoji font (see app.js).
    return EMOJI[name]
      ? `<span class="emoji" title=":${name}:" data-name=":${name}:">${EMOJI[name]}</span>`
      : whole;
  });
}

/** plain_text objects: escaped, with emoji unless `emoji: false`. */
export function plainText(text, emoji = true) {
  const html = escapeHtml(text).replace(/\n/g, '<br>');
  return emoji ? emojify(html) : html;
}

/** A text object of either kind. */
export function textObject(obj, ctx) {
  if (!obj) return '';
  if (typeof obj === 'string') return plainText(obj);
  return obj.type === 'mrkdwn' ? mrkdwn(obj.text, ctx) : plainText(obj.text, obj.emoji !== false);
}

/** The same text as a person reads it: no markup (for labels, titles, aria). */
export function textOf(obj) {
  if (!obj) return '';
  return decodeEntities(typeof obj === 'string' ? obj : (obj.text ?? ''));
}

const SAFE_URL = /^(https?:|mailto:|tel:)/i;

export function safeUrl(url) {
  const value = decodeEntities(url).trim();
  return SAFE_URL.test(value) ? value : undefined;
}

/** An image source: http(s), or a path on this server (shared files). */
export function safeImage(url) {
  const value = String(url ?? '').trim();
  return /^(https?:)?\/\//i.test(value) || (value.startsWith('/') && !value.startsWith('//'))
    ? value
    : undefined;
}

function userName(id, ctx) {
  const user = ctx?.users?.get?.(id);
  return user ? user.name : id;
}

/** `<…>` sequences: mentions, channels, special mentions, dates, links. */
function special(inner, ctx) {
  const bar = inner.indexOf('|');
  const target = bar < 0 ? inner : inner.slice(0, bar);
  const label = bar < 0 ? undefined : inner.slice(bar + 1);
  const labelHtml = (fallback) => emojify(escapeHtml(decodeEntities(label ?? fallback)));
  if (target.startsWith('@')) {
    const id = target.slice(1);
    const me = ctx?.me === id ? ' mk-me' : '';
    const name = ctx?.users?.get?.(id) ? userName(id, ctx) : (label ?? id);
    return `<span class="mk-mention${me}" data-user="${escapeHtml(id)}">@${escapeHtml(decodeEntities(name))}</span>`;
  }
  if (target.startsWith('#')) {
    const id = target.slice(1);
    const name = ctx?.channels?.get?.(id)?.name ?? label ?? id;
    return `<a class="mk-channel" href="#/${escapeHtml(id)}">#${escapeHtml(decodeEntities(name))}</a>`;
  }
  if (target.startsWith('!')) {
    const command = target.slice(1);
    if (['here', 'channel', 'everyone'].includes(command)) {
      return `<span class="mk-mention mk-broadcast">@${command}</span>`;
    }
    if (command.startsWith('date^')) return `<span class="mk-date">${labelHtml('')}</span>`;
    if (command.startsWith('subteam^')) return `<span class="mk-mention">${labelHtml('@team')}</span>`;
    return label === undefined ? '' : labelHtml('');
  }
  const url = safeUrl(target);
  const shown = label === undefined ? escapeHtml(decodeEntities(target)) : labelHtml('');
  if (!url) return shown;
  return `<a class="mk-link" href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${shown}</a>`;
}

// Where *bold*, _italic_ and ~strike~ may open and close: next to a space, punctuation, a line end, or markup
// this renderer added (`>` of a tag, placeholders \uE000…\uE001). Escaped text holds no raw < or >.
const OPEN = '(^|[\\s([{;.,:!?/\\-\\uE001>*_~])';
const CLOSE = '(?=$|[\\s)\\]}&.,;:!?/\\-\\uE000<*_~])';

function formatRegex(marker) {
  const m = `\\${marker}`;
  return new RegExp(`${OPEN}${m}(?!\\s)([^${m}\\n]*?[^\\s${m}])${m}${CLOSE}`, 'g');
}

const BOLD = formatRegex('*');
const ITALIC = formatRegex('_');
const STRIKE = formatRegex('~');

function inline(line, ctx) {
  const held = [];
  const hold = (html) => `\uE000${held.push(html) - 1}\uE001`;
  let s = line.replace(/`([^`\n]+)`/g, (_, code) =>
    hold(`<code class="mk-code">${escapeHtml(decodeEntities(code))}</code>`),
  );
  s = s.replace(/<([^<>\n]+)>/g, (_, inner) => hold(special(inner, ctx)));
  s = escapeHtml(decodeEntities(s));
  s = s.replace(BOLD, '$1<b>$2</b>');
  s = s.replace(ITALIC, '$1<i>$2</i>');
  s = s.replace(STRIKE, '$1<s>$2</s>');
  s = emojify(s);
  // Placeholders may nest (a held link inside held code is impossible, but be safe): restore until none left.
  for (let i = 0; i < 3 && s.includes('\uE000'); i++) {
    s = s.replace(/\uE000(\d+)\uE001/g, (_, n) => held[Number(n)] ?? '');
  }
  return s;
}

const QUOTE = /^(?:>|&gt;) ?/;
const LIST_ITEM = /^(\s*)([•◦▪‣\-*]|\d{1,3}[.)])\s+(.*)$/;

function lines(text, ctx) {
  const out = [];
  let quote = [];
  let plain = [];
  const flushPlain = () => {
    if (plain.length) out.push(plain.join('<br>'));
    plain = [];
  };
  const flushQuote = () => {
    if (quote.length) out.push(`<blockquote class="mk-quote">${quote.join('<br>')}</blockquote>`);
    quote = [];
  };
  for (const raw of text.split('\n')) {
    if (QUOTE.test(raw)) {
      flushPlain();
      quote.push(inline(raw.replace(QUOTE, ''), ctx));
      continue;
    }
    flushQuote();
    const item = LIST_ITEM.exec(raw);
    if (item && !/^\*[^\s*]/.test(raw.trimStart())) {
      flushPlain();
      const depth = Math.min(3, Math.floor(item[1].length / 2));
      out.push(
        `<div class="mk-li mk-depth-${depth}"><span class="mk-bullet">${escapeHtml(item[2])}</span><span>${inline(item[3], ctx)}</span></div>`,
      );
      continue;
    }
    plain.push(inline(raw, ctx));
  }
  flushPlain();
  flushQuote();
  return out.join('');
}

/**
 * Slack's mrkdwn: *bold*, _italic_, ~strike~, `code`, ```pre```, > quotes, list lines, <url|label> links,
 * <@U…> and <#C…> mentions, <!here>, <!date^…|fallback> (the fallback), and the &amp; &lt; &gt; entities.
 */
export function mrkdwn(text, ctx) {
  const parts = String(text ?? '').split('```');
  const closed = parts.length % 2 === 1;
  let html = '';
  for (let i = 0; i < parts.length; i++) {
    let part = parts[i];
    const isCode = i % 2 === 1 && (closed || i < parts.length - 1);
    if (isCode) {
      part = part.replace(/^\n/, '').replace(/\n$/, '');
      html += `<pre class="mk-pre">${escapeHtml(decodeEntities(part))}</pre>`;
      continue;
    }
    if (i % 2 === 1) part = `\`\`\`${part}`;
    if (i > 0) part = part.replace(/^\n/, '');
    if (i < parts.length - 1) part = part.replace(/\n$/, '');
    if (part !== '') html += lines(part, ctx);
  }
  return html;
}

// ---------------------------------------------------------------------------------------------------------
// Blocks

let uid = 0;
function nextId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

function attrs(map) {
  return Object.entries(map)
    .filter(([, v]) => v !== undefined && v !== null && v !== false)
    .map(([k, v]) => (v === true ? ` ${k}` : ` ${k}="${escapeHtml(v)}"`))
    .join('');
}

function elementAttrs(block, element, extra = {}) {
  return attrs({
    'data-block': block.block_id,
    'data-action': element.action_id,
    'data-type': element.type,
    ...extra,
  });
}

function optionLabel(option) {
  return textOf(option.text);
}

function allOptions(element) {
  if (Array.isArray(element.options)) return element.options;
  if (Array.isArray(element.option_groups)) return element.option_groups.flatMap((g) => g.options ?? []);
  return [];
}

function selectOptions(element, selected) {
  const isSelected = (value) => (Array.isArray(selected) ? selected.includes(value) : selected === value);
  const option = (o) =>
    `<option${attrs({ value: o.value, selected: isSelected(o.value) })}>${escapeHtml(optionLabel(o))}</option>`;
  if (Array.isArray(element.option_groups)) {
    return element.option_groups
      .map(
        (g) =>
          `<optgroup label="${escapeHtml(textOf(g.label))}">${(g.options ?? []).map(option).join('')}</optgroup>`,
      )
      .join('');
  }
  return (element.options ?? []).map(option).join('');
}

/** The value an element shows at first: its initial_*, as Slack renders a fresh view. */
export function initialValue(element) {
  if (typeof element.initial_value === 'string') return element.initial_value;
  if (element.initial_option) return element.initial_option.value;
  if (Array.isArray(element.initial_options)) return element.initial_options.map((o) => o.value);
  for (const key of [
    'initial_date',
    'initial_time',
    'initial_user',
    'initial_conversation',
    'initial_channel',
  ]) {
    if (typeof element[key] === 'string') return element[key];
  }
  if (Array.isArray(element.initial_users)) return element.initial_users;
  if (typeof element.initial_date_time === 'number') return String(element.initial_date_time);
  return undefined;
}

/** The wall-clock parts of an instant in a zone, as numbers. */
function zonedParts(ms, timeZone) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  /** @type {Record<string, number>} */
  const out = {};
  for (const p of parts) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return out;
}

/** UNIX seconds as a datetime-local value ("2026-11-24T09:00") in the user's zone, as Slack's picker shows it. */
export function zonedLocal(seconds, timeZone) {
  const p = zonedParts(Number(seconds) * 1000, timeZone);
  const two = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`;
}

/** A datetime-local value read in the user's zone, as UNIX seconds (what Slack submits), or '' when empty. */
export function zonedSeconds(local, timeZone) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local ?? '');
  if (!m) return '';
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  // The zone's offset at that moment, found from its wall clock; once more near a change of offset.
  let guess = wall;
  for (let i = 0; i < 2; i++) {
    const p = zonedParts(guess, timeZone);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    guess = wall - (shown - guess);
  }
  return String(Math.floor(guess / 1000));
}

/** Element types that hold a value a view submission carries. */
export const STATEFUL = new Set([
  'plain_text_input',
  'number_input',
  'email_text_input',
  'url_text_input',
  'static_select',
  'multi_static_select',
  'external_select',
  'users_select',
  'multi_users_select',
  'conversations_select',
  'channels_select',
  'radio_buttons',
  'checkboxes',
  'datepicker',
  'timepicker',
  'datetimepicker',
  'file_input',
]);

function dispatchTriggers(block, element, inInput) {
  if (inInput && block.dispatch_action !== true) return undefined;
  const textual = ['plain_text_input', 'number_input', 'email_text_input', 'url_text_input'].includes(
    element.type,
  );
  if (!textual) return 'on_change';
  const triggers = element.dispatch_action_config?.trigger_actions_on ?? ['on_enter_pressed'];
  return triggers.join(' ');
}

function renderElement(block, element, ctx, place) {
  const inInput = place === 'input';
  const current = ctx.valueOf ? ctx.valueOf(block.block_id, element.action_id, element) : undefined;
  const value = current === undefined ? initialValue(element) : current;
  const dispatch = dispatchTriggers(block, element, inInput);
  const placeholder = element.placeholder ? textOf(element.placeholder) : undefined;
  const id = place === 'input' ? ctx.inputId : undefined;
  const common = (extra = {}) => elementAttrs(block, element, { 'data-dispatch': dispatch, ...extra });
  switch (element.type) {
    case 'button': {
      const style =
        element.style === 'primary' || element.style === 'danger' ? ` bk-btn-${element.style}` : '';
      return `<button type="button" class="bk-btn${style}"${elementAttrs(block, element, {
        'data-url': element.url ? safeUrl(element.url) : undefined,
        'data-confirm': element.confirm ? '1' : undefined,
        'aria-label': element.accessibility_label,
      })}>${plainText(textOf(element.text))}</button>`;
    }
    case 'overflow':
      return `<button type="button" class="bk-overflow"${elementAttrs(block, element, { 'aria-label': 'More actions' })}>⋯</button>`;
    case 'image': {
      const src = safeImage(element.image_url);
      return src
        ? `<img class="bk-el-image"${attrs({ src, alt: element.alt_text ?? '', loading: 'lazy' })}>`
        : '';
    }
    case 'plain_text_input':
    case 'email_text_input':
    case 'url_text_input': {
      const text = typeof value === 'string' ? value : '';
      const extra = {
        id,
        placeholder,
        maxlength: element.max_length,
        minlength: element.min_length,
      };
      if (element.multiline) {
        return `<textarea class="bk-input bk-textarea" rows="4"${common(extra)}>${escapeHtml(text)}</textarea>`;
      }
      const type =
        element.type === 'email_text_input' ? 'email' : element.type === 'url_text_input' ? 'url' : 'text';
      return `<input class="bk-input"${common({ type, value: text, ...extra })}>`;
    }
    case 'number_input': {
      const text = typeof value === 'string' ? value : '';
      return `<input class="bk-input bk-number"${common({
        id,
        type: 'text',
        inputmode: element.is_decimal_allowed ? 'decimal' : 'numeric',
        value: text,
        placeholder,
        'data-min': element.min_value,
        'data-max': element.max_value,
        'data-decimal': element.is_decimal_allowed ? '1' : undefined,
      })}>`;
    }
    case 'static_select':
    case 'external_select':
    case 'multi_static_select': {
      const multiple = element.type === 'multi_static_select';
      const empty = multiple
        ? ''
        : `<option value=""${value === undefined ? ' selected' : ''}>${escapeHtml(placeholder ?? 'Select an option')}</option>`;
      return `<select class="bk-select${multiple ? ' bk-multi' : ''}"${common({ id, multiple })}>${empty}${selectOptions(element, value)}</select>`;
    }
    case 'users_select':
    case 'multi_users_select': {
      const users = [...(ctx.users?.values?.() ?? [])].filter((u) => !u.isBot);
      const multiple = element.type === 'multi_users_select';
      const fake = {
        options: users.map((u) => ({ value: u.id, text: { text: `${u.realName} (@${u.name})` } })),
      };
      const empty = multiple
        ? ''
        : `<option value="">${escapeHtml(placeholder ?? 'Select a person')}</option>`;
      return `<select class="bk-select"${common({ id, multiple })}>${empty}${selectOptions(fake, value)}</select>`;
    }
    case 'conversations_select':
    case 'channels_select': {
      const channels = [...(ctx.channels?.values?.() ?? [])];
      const fake = { options: channels.map((c) => ({ value: c.id, text: { text: `#${c.name}` } })) };
      const empty = `<option value="">${escapeHtml(placeholder ?? 'Select a channel')}</option>`;
      return `<select class="bk-select"${common({ id })}>${empty}${selectOptions(fake, value)}</select>`;
    }
    case 'radio_buttons':
    case 'checkboxes': {
      const radio = element.type === 'radio_buttons';
      const name = nextId('opt');
      const chosen = Array.isArray(value) ? value : value === undefined ? [] : [value];
      const items = allOptions(element)
        .map(
          (o) =>
            `<label class="bk-choice"><input${attrs({
              type: radio ? 'radio' : 'checkbox',
              name,
              value: o.value,
              checked: chosen.includes(o.value),
            })}><span class="bk-choice-text">${textObject(o.text, ctx)}${
              o.description ? `<span class="bk-choice-desc">${textObject(o.description, ctx)}</span>` : ''
            }</span></label>`,
        )
        .join('');
      return `<div class="bk-choices" role="${radio ? 'radiogroup' : 'group'}"${common({
        id,
        'aria-labelledby': ctx.labelId,
      })}>${items}</div>`;
    }
    case 'file_input': {
      // The value is what was uploaded so far: [{ id, name }]. The picker uploads at once, as Slack does.
      const files = Array.isArray(value) ? value.filter((f) => f && typeof f === 'object') : [];
      const max = Number.isInteger(element.max_files) ? element.max_files : 10;
      const accept = Array.isArray(element.filetypes)
        ? element.filetypes.map((t) => `.${String(t).replace(/^\./, '')}`).join(',')
        : undefined;
      const list = files.map((f) => `<li class="bk-file-name">${escapeHtml(f.name)}</li>`).join('');
      return `<div class="bk-file"${common({ 'data-files': JSON.stringify(files), 'data-max': max })}><input class="bk-file-pick"${attrs(
        { id, type: 'file', multiple: max > 1, accept, disabled: files.length >= max },
      )}><ul class="bk-file-list">${list}</ul></div>`;
    }
    case 'datepicker':
      return `<input class="bk-input bk-date"${common({ id, type: 'date', value: typeof value === 'string' ? value : '' })}>`;
    case 'datetimepicker': {
      // Slack shows and reads the picker in the user's own zone and submits UNIX seconds.
      const tz = ctx.users?.get?.(ctx.me)?.tz ?? 'UTC';
      const local = /^\d+$/.test(String(value ?? '')) ? zonedLocal(value, tz) : '';
      return `<input class="bk-input bk-date"${common({ id, type: 'datetime-local', value: local, 'data-tz': tz })}>`;
    }
    case 'timepicker':
      return `<input class="bk-input bk-date"${common({ id, type: 'time', value: typeof value === 'string' ? value : '' })}>`;
    default:
      return `<span class="bk-unsupported">[${escapeHtml(element.type)}]</span>`;
  }
}

function renderSection(block, ctx) {
  let body = '';
  if (block.text) body += `<div class="bk-text">${textObject(block.text, ctx)}</div>`;
  if (Array.isArray(block.fields) && block.fields.length) {
    body += `<div class="bk-fields">${block.fields.map((f) => `<div class="bk-field">${textObject(f, ctx)}</div>`).join('')}</div>`;
  }
  const accessory = block.accessory ? renderElement(block, block.accessory, ctx, 'accessory') : '';
  const kind = block.accessory?.type === 'image' ? ' bk-has-image' : '';
  return `<div class="bk-section${kind}"><div class="bk-section-body">${body}</div>${
    accessory ? `<div class="bk-accessory">${accessory}</div>` : ''
  }</div>`;
}

function renderContext(block, ctx) {
  const parts = (block.elements ?? []).map((e) => {
    if (e.type === 'image') {
      const src = safeImage(e.image_url);
      return src ? `<img class="bk-context-img"${attrs({ src, alt: e.alt_text ?? '' })}>` : '';
    }
    return `<span class="bk-context-text">${textObject(e, ctx)}</span>`;
  });
  return `<div class="bk-context">${parts.join('')}</div>`;
}

function renderInput(block, ctx) {
  const element = block.element ?? {};
  const inputId = nextId('in');
  const labelId = nextId('lbl');
  const error = ctx.errors?.[block.block_id];
  const inner = renderElement(block, element, { ...ctx, inputId, labelId }, 'input');
  const optional = block.optional ? '<span class="bk-optional">(optional)</span>' : '';
  const labelFor = ['radio_buttons', 'checkboxes'].includes(element.type) ? {} : { for: inputId };
  return `<div class="bk-input-block${error ? ' bk-has-error' : ''}"${attrs({ 'data-block': block.block_id, 'data-required': block.optional ? undefined : '1' })}>
<label class="bk-label"${attrs({ id: labelId, ...labelFor })}>${plainText(textOf(block.label))}${optional}</label>
${inner}
${error ? `<div class="bk-error" role="alert"><span class="bk-error-icon">⚠</span>${escapeHtml(error)}</div>` : ''}
${block.hint ? `<div class="bk-hint">${textObject(block.hint, ctx)}</div>` : ''}
</div>`;
}

function renderImage(block) {
  const src = safeImage(block.image_url);
  const title = block.title ? `<div class="bk-image-title">${plainText(textOf(block.title))}</div>` : '';
  return `<div class="bk-image">${title}${src ? `<img${attrs({ src, alt: block.alt_text ?? '', loading: 'lazy' })}>` : ''}</div>`;
}

function richElements(elements, ctx) {
  return (elements ?? [])
    .map((e) => {
      let html;
      switch (e.type) {
        case 'text':
          html = emojify(escapeHtml(e.text)).replace(/\n/g, '<br>');
          break;
        case 'link': {
          const url = safeUrl(e.url ?? '');
          const label = escapeHtml(e.text ?? e.url ?? '');
          html = url
            ? `<a class="mk-link" href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">${label}</a>`
            : label;
          break;
        }
        case 'user':
          html = special(`@${e.user_id}`, ctx);
          break;
        case 'channel':
          html = special(`#${e.channel_id}`, ctx);
          break;
        case 'emoji':
          html = emojify(`:${escapeHtml(e.name)}:`);
          break;
        case 'broadcast':
          html = special(`!${e.range}`, ctx);
          break;
        default:
          html = '';
      }
      const s = e.style ?? {};
      if (s.code) html = `<code class="mk-code">${html}</code>`;
      if (s.bold) html = `<b>${html}</b>`;
      if (s.italic) html = `<i>${html}</i>`;
      if (s.strike) html = `<s>${html}</s>`;
      return html;
    })
    .join('');
}

function renderRichText(block, ctx) {
  const parts = (block.elements ?? []).map((el) => {
    switch (el.type) {
      case 'rich_text_section':
        return `<div>${richElements(el.elements, ctx)}</div>`;
      case 'rich_text_quote':
        return `<blockquote class="mk-quote">${richElements(el.elements, ctx)}</blockquote>`;
      case 'rich_text_preformatted':
        return `<pre class="mk-pre">${richElements(el.elements, ctx)}</pre>`;
      case 'rich_text_list': {
        const tag = el.style === 'ordered' ? 'ol' : 'ul';
        const items = (el.elements ?? []).map((s) => `<li>${richElements(s.elements, ctx)}</li>`).join('');
        return `<${tag} class="mk-rich-list">${items}</${tag}>`;
      }
      default:
        return '';
    }
  });
  return `<div class="bk-rich">${parts.join('')}</div>`;
}

/** One block. `ctx`: users and channels (Maps by id), me, valueOf(blockId, actionId, element), errors. */
export function renderBlock(block, ctx = {}) {
  let inner;
  switch (block.type) {
    case 'header':
      inner = `<div class="bk-header">${plainText(textOf(block.text), block.text?.emoji !== false)}</div>`;
      break;
    case 'section':
      inner = renderSection(block, ctx);
      break;
    case 'context':
      inner = renderContext(block, ctx);
      break;
    case 'divider':
      inner = '<hr class="bk-divider">';
      break;
    case 'actions':
      inner = `<div class="bk-actions">${(block.elements ?? []).map((e) => renderElement(block, e, ctx, 'actions')).join('')}</div>`;
      break;
    case 'image':
      inner = renderImage(block);
      break;
    case 'input':
      inner = renderInput(block, ctx);
      break;
    case 'rich_text':
      inner = renderRichText(block, ctx);
      break;
    default:
      inner = `<div class="bk-unsupported">This block (${escapeHtml(block.type)}) is not shown here.</div>`;
  }
  return `<div class="bk-block bk-block-${escapeHtml(block.type)}"${attrs({ 'data-block-id': block.block_id })}>${inner}</div>`;
}

export function renderBlocks(blocks, ctx = {}) {
  return (blocks ?? []).map((b) => renderBlock(b, ctx)).join('');
}

/** Legacy attachments: a coloured bar with text and fields. */
export function renderAttachments(attachments, ctx = {}) {
  return (attachments ?? [])
    .map((a) => {
      const color = /^#?[0-9a-f]{3,6}$/i.test(a.color ?? '')
        ? a.color.startsWith('#')
          ? a.color
          : `#${a.color}`
        : ({ good: '#2eb67d', warning: '#ecb22e', danger: '#e01e5a' }[a.color] ?? '#dddddd');
      const title = a.title ? `<div class="att-title">${escapeHtml(decodeEntities(a.title))}</div>` : '';
      const text = a.text ? `<div class="att-text">${mrkdwn(a.text, ctx)}</div>` : '';
      const fields = (a.fields ?? [])
        .map(
          (f) =>
            `<div class="bk-field"><b>${escapeHtml(decodeEntities(f.title ?? ''))}</b><br>${mrkdwn(f.value ?? '', ctx)}</div>`,
        )
        .join('');
      const blocks = a.blocks ? renderBlocks(a.blocks, ctx) : '';
      return `<div class="att" data-color="${escapeHtml(color)}">${title}${text}${fields ? `<div class="bk-fields">${fields}</div>` : ''}${blocks}</div>`;
    })
    .join('');
}

/** Finds an element by block and action id in a list of blocks: what a click or a keystroke refers to. */
export function findElement(blocks, blockId, actionId) {
  for (const block of blocks ?? []) {
    if (block.block_id !== blockId) continue;
    const elements = [...(block.elements ?? []), block.accessory, block.element].filter(Boolean);
    const element = elements.find((e) => e.action_id === actionId);
    if (element) return { block, element };
  }
  return undefined;
}
