// The local workspace page: a Slack-like client for the one local workspace. It talks only to this server's
// /_ws/ endpoints and event stream; the server talks to the bot exactly as Slack does.
import {
  escapeHtml,
  findElement,
  mrkdwn,
  plainText,
  renderAttachments,
  renderBlocks,
  STATEFUL,
  textObject,
  textOf,
  zonedSeconds,
} from './render.js';

/** @type {(selector: string, root?: ParentNode) => HTMLElement & HTMLInputElement} */
const $ = (selector, root = document) => root.querySelector(selector);
/** @type {(selector: string, root?: ParentNode) => (HTMLElement & HTMLInputElement)[]} */
const $$ = (selector, root = document) => [
  .../** @type {NodeListOf<HTMLElement & HTMLInputElement>} */ (root.querySelectorAll(selector)),
];

const BOT_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path fill="#fff" d="M4 5h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1h-9l-5 4v-4H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zm3 5.2a1.3 1.3 0 1 0 0 2.6 1.3 1.3 0 0 0 0-2.6zm5 0a1.3 1.3 0 1 0 0 2.6 1.3 1.3 0 0 0 0-2.6zm5 0a1.3 1.3 0 1 0 0 2.6 1.3 1.3 0 0 0 0-2.6z"/></svg>';
const icon = (body, size = 16) =>
  `<svg class="icon" viewBox="0 0 20 20" width="${size}" height="${size}" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;
const ICONS = {
  lock: icon('<rect x="4.5" y="9" width="11" height="8" rx="1.5"/><path d="M7 9V6.5a3 3 0 0 1 6 0V9"/>', 14),
  members: icon('<circle cx="10" cy="6.5" r="3"/><path d="M4 17c.6-3.3 3-5 6-5s5.4 1.7 6 5"/>', 14),
  eye: icon(
    '<path d="M2 10s3-5.5 8-5.5S18 10 18 10s-3 5.5-8 5.5S2 10 2 10z"/><circle cx="10" cy="10" r="2.3"/>',
    14,
  ),
  reply: icon('<path d="M3.5 4.5h13v9h-7l-4 3v-3h-2z"/>', 15),
  file: icon('<path d="M5 2.5h6.5L15 6v11.5H5z"/><path d="M11.5 2.5V6H15"/>', 22),
  link: icon(
    '<path d="M8.5 11.5a3 3 0 0 0 4.2 0l2.5-2.5a3 3 0 0 0-4.2-4.2l-1 1"/><path d="M11.5 8.5a3 3 0 0 0-4.2 0L4.8 11a3 3 0 0 0 4.2 4.2l1-1"/>',
    15,
  ),
};
const SLACKBOT = 'USLACKBOT';
const DISPATCH_DEBOUNCE_MS = 450;
const GROUP_WINDOW_SEC = 5 * 60;

const S = {
  me: 'U0ADMIN',
  boot: null,
  users: new Map(),
  channels: new Map(),
  /** What the main pane shows: a channel, or the app (Home / Messages / About). */
  place: { kind: 'channel', id: 'C0SMSOPS', tab: 'home' },
  /** channel id → ts → message (top level and replies alike). */
  msgs: new Map(),
  /** channel id → ts → journal sequence number of the last event applied to that message (posted, updated or
   * deleted), so that a history snapshot taken before it cannot bring back an older text or a deleted message. */
  msgSeq: new Map(),
  /** Counts resyncs: a history or thread answer asked for before the latest one is not merged. */
  generation: 0,
  /** channel id → ts → ephemeral shown to me. */
  eph: new Map(),
  /** The open thread: { channel, ts }. */
  thread: null,
  views: { seq: 0, stack: [], home: null },
  /** view id → block id → action id → what I typed or picked, kept across re-renders and views.update. */
  typed: new Map(),
  errors: new Map(),
  banner: new Map(),
  submitting: null,
  unread: new Map(),
  modalKey: '',
  scrollToError: false,
  connectedOnce: false,
  /** After I send from the main composer: { channel, until }. The answer that comes next is scrolled to. */
  awaitingAnswer: null,
};

// ---------------------------------------------------------------------------------------------------------
// Server calls

async function api(name, body) {
  const init =
    body === undefined
      ? { headers: { accept: 'application/json' } }
      : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  const res = await fetch(`/_ws/${name}`, init);
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}

const q = (params) => new URLSearchParams(params).toString();

let toastTimer;
function toast(text) {
  const el = $('#toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    el.hidden = true;
  }, 4000);
}

// ---------------------------------------------------------------------------------------------------------
// Model helpers

function compareTs(a, b) {
  const [as, af = '0'] = a.split('.');
  const [bs, bf = '0'] = b.split('.');
  return Number(as) - Number(bs) || Number(af.padEnd(6, '0')) - Number(bf.padEnd(6, '0'));
}

function bucket(map, channel) {
  let inner = map.get(channel);
  if (!inner) {
    inner = new Map();
    map.set(channel, inner);
  }
  return inner;
}

function isTopLevel(m) {
  return !m.thread_ts || m.thread_ts === m.ts;
}

function renderCtx(extra = {}) {
  return { users: S.users, channels: S.channels, me: S.me, ...extra };
}

function currentChannelId() {
  if (S.place.kind === 'channel') return S.place.id;
  if (S.place.kind === 'app' && S.place.tab === 'messages') return S.boot?.appDm;
  return undefined;
}

function channelLabel(id) {
  const c = S.channels.get(id);
  if (c) return `#${c.name}`;
  if (id === S.boot?.appDm) return S.boot.app.name;
  return id;
}

function authorOf(m) {
  if (m.user === SLACKBOT) return { name: 'Slackbot', kind: 'slackbot' };
  if (m.bot_id || m.user === S.boot?.app.botUserId) return { name: S.boot?.app.name ?? 'app', kind: 'bot' };
  const user = S.users.get(m.user);
  return { name: user ? user.realName : (m.user ?? 'unknown'), kind: 'user', id: m.user };
}

function colorClass(id = '') {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `c${h % 6}`;
}

function avatar(author, extraClass = '') {
  if (author.kind === 'bot') return `<div class="avatar bot ${extraClass}">${BOT_ICON}</div>`;
  if (author.kind === 'slackbot') return `<div class="avatar slackbot ${extraClass}">♥</div>`;
  const initial = escapeHtml((author.name || '?').trim().charAt(0).toUpperCase());
  return `<div class="avatar ${colorClass(author.id)} ${extraClass}">${initial}</div>`;
}

function timeOf(ts) {
  return new Date(Number(ts.split('.')[0]) * 1000);
}

function clock(ts) {
  return timeOf(ts).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
}

function dayLabel(date) {
  const today = new Date();
  const yesterday = new Date(Date.now() - 86_400_000);
  if (date.toDateString() === today.toDateString()) return 'Today';
  if (date.toDateString() === yesterday.toDateString()) return 'Yesterday';
  return date.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric' });
}

// ---------------------------------------------------------------------------------------------------------
// Messages

function messageContent(m) {
  const ctx = renderCtx();
  let html = '';
  if (Array.isArray(m.blocks) && m.blocks.length > 0) html += renderBlocks(m.blocks, ctx);
  else if (m.text) html += `<div class="mk-root">${mrkdwn(m.text, ctx)}</div>`;
  if (m.edited && !m.is_ephemeral) html += '<span class="edited">(edited)</span>';
  if (m.attachments?.length) html += renderAttachments(m.attachments, ctx);
  if (m.files?.length) {
    html += `<div class="files">${m.files
      .map((f) =>
        f.mimetype?.startsWith('image/')
          ? `<a class="file" href="${escapeHtml(f.url)}" target="_blank" rel="noopener"><img src="${escapeHtml(f.url)}" alt="${escapeHtml(f.title ?? f.name)}"></a>`
          : `<a class="file" href="${escapeHtml(f.url)}" target="_blank" rel="noopener"><span>${ICONS.file}</span><span><span class="file-name">${escapeHtml(f.title ?? f.name)}</span><br><span class="file-meta">${escapeHtml((f.filetype ?? '').toUpperCase())} · ${Number(f.size ?? 0).toLocaleString('en-US')} bytes</span></span></a>`,
      )
      .join('')}</div>`;
  }
  return html;
}

function threadSummary(m) {
  if (!m.reply_count) return '';
  const replies = [...(S.msgs.get(m.channel)?.values() ?? [])].filter(
    (r) => r.thread_ts === m.ts && r.ts !== m.ts,
  );
  const people = [...new Map(replies.map((r) => [r.bot_id ?? r.user, authorOf(r)])).values()].slice(0, 3);
  const last = m.latest_reply
    ? `Last reply ${dayLabel(timeOf(m.latest_reply)).toLowerCase()} at ${clock(m.latest_reply)}`
    : '';
  const count = `${m.reply_count} ${m.reply_count === 1 ? 'reply' : 'replies'}`;
  return `<button type="button" class="thread-summary" data-op="open-thread">${people.map((a) => avatar(a, 'mini')).join('')}<span class="count">${count}</span><span class="last">${escapeHtml(last)}</span></button>`;
}

function messageHtml(m, options) {
  const author = authorOf(m);
  const ephemeral = m.is_ephemeral === true;
  const time = `<span class="msg-time" title="${escapeHtml(timeOf(m.ts).toLocaleString('en-US'))}">${clock(m.ts)}</span>`;
  const gutter = options.continued
    ? `<div class="gutter"><span class="hover-time">${clock(m.ts).replace(/\s?[AP]M$/, '')}</span></div>`
    : `<div class="gutter">${avatar(author)}</div>`;
  const meta = options.continued
    ? ''
    : `<div class="msg-meta"><span class="msg-author">${escapeHtml(author.name)}</span>${author.kind === 'bot' ? '<span class="app-badge">App</span>' : ''}${time}</div>`;
  const note = ephemeral ? `<div class="ephemeral-note">${ICONS.eye} Only visible to you</div>` : '';
  const foot = ephemeral
    ? '<div class="msg-foot"><button type="button" data-op="dismiss">Dismiss message</button></div>'
    : '';
  const actions =
    !ephemeral && !options.inThread
      ? `<div class="msg-actions"><button type="button" data-op="open-thread" title="Reply in thread">${ICONS.reply} Reply in thread</button></div>`
      : '';
  const classes = ['msg', options.continued ? 'continued' : '', ephemeral ? 'ephemeral' : '']
    .filter(Boolean)
    .join(' ');
  return `<div class="${classes}" data-channel="${escapeHtml(m.channel)}" data-ts="${escapeHtml(m.ts)}"${ephemeral ? ' data-eph="1"' : ''} role="listitem">${gutter}<div class="msg-body">${note}${meta}<div class="msg-text">${messageContent(m)}</div>${options.inThread ? '' : threadSummary(m)}${foot}</div>${actions}</div>`;
}

function messageListHtml(list, options = {}) {
  let html = '';
  let previous;
  let day = '';
  for (const m of list) {
    const date = timeOf(m.ts);
    const label = dayLabel(date);
    if (label !== day && !options.inThread) {
      html += `<div class="day-divider"><span>${escapeHtml(label)}</span></div>`;
      day = label;
      previous = undefined;
    }
    const sameAuthor =
      previous &&
      !previous.is_ephemeral &&
      !m.is_ephemeral &&
      (previous.bot_id ?? previous.user) === (m.bot_id ?? m.user) &&
      Number(m.ts.split('.')[0]) - Number(previous.ts.split('.')[0]) < GROUP_WINDOW_SEC &&
      !previous.reply_count;
    html += messageHtml(m, { continued: Boolean(sameAuthor), inThread: options.inThread });
    previous = m;
    if (options.afterFirst && m === list[0] && list.length > 1) html += options.afterFirst;
  }
  return html;
}

function channelMessages(channelId) {
  const main = [...(S.msgs.get(channelId)?.values() ?? [])].filter(isTopLevel);
  const mine = [...(S.eph.get(channelId)?.values() ?? [])].filter(isTopLevel);
  return [...main, ...mine].sort((a, b) => compareTs(a.ts, b.ts));
}

function threadMessages(channelId, ts) {
  const main = [...(S.msgs.get(channelId)?.values() ?? [])].filter((m) => m.ts === ts || m.thread_ts === ts);
  const mine = [...(S.eph.get(channelId)?.values() ?? [])].filter((m) => m.thread_ts === ts && m.ts !== ts);
  return [...main, ...mine].sort((a, b) => compareTs(a.ts, b.ts));
}

function findMessage(channel, ts, ephemeral) {
  return (ephemeral ? S.eph : S.msgs).get(channel)?.get(ts);
}

// ---------------------------------------------------------------------------------------------------------
// Rendering: sidebar, main pane, thread, modal

function renderSidebar() {
  const channelItems = (S.boot?.myChannels ?? [])
    .map((id) => S.channels.get(id))
    .filter(Boolean)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((c) => {
      const active = S.place.kind === 'channel' && S.place.id === c.id;
      const unread = S.unread.get(c.id) ?? 0;
      return `<li class="side-item${active ? ' active' : ''}${unread ? ' unread' : ''}" data-go="${escapeHtml(c.id)}" role="link" tabindex="0" aria-current="${active ? 'page' : 'false'}"><span class="hash">${c.kind === 'private' ? ICONS.lock : '#'}</span><span>${escapeHtml(c.name)}</span>${unread ? `<span class="badge">${unread}</span>` : ''}</li>`;
    })
    .join('');
  $('#channel-list').innerHTML = channelItems;
  const appName = escapeHtml(S.boot?.app.name ?? 'app');
  const dmActive = S.place.kind === 'app' && S.place.tab === 'messages';
  const dmUnread = S.boot?.appDm ? (S.unread.get(S.boot.appDm) ?? 0) : 0;
  $('#dm-list').innerHTML = S.boot?.appDm
    ? `<li class="side-item${dmActive ? ' active' : ''}${dmUnread ? ' unread' : ''}" data-go="app/messages" role="link" tabindex="0"><span class="presence"></span><span>${appName}</span>${dmUnread ? `<span class="badge">${dmUnread}</span>` : ''}</li>`
    : '';
  const homeActive = S.place.kind === 'app' && S.place.tab !== 'messages';
  $('#app-list').innerHTML =
    `<li class="side-item${homeActive ? ' active' : ''}" data-go="app/home" role="link" tabindex="0"><div class="avatar bot side-avatar">${BOT_ICON}</div><span>${appName}</span></li>`;
}

function composerHtml(placeholder, scope) {
  return `<div class="composer-wrap" data-scope="${scope}">
<div class="slash-popup" hidden></div>
<div class="composer">
<div class="composer-toolbar" aria-hidden="true"><span><b>B</b></span><span><i>I</i></span><span><s>S</s></span><span>${ICONS.link}</span><span>≡</span><span>&lt;/&gt;</span></div>
<textarea rows="1" aria-label="${escapeHtml(placeholder)}" placeholder="${escapeHtml(placeholder)}"></textarea>
<div class="composer-bottom"><span class="composer-hint">${scope === 'main' ? 'Type <b>/</b> for commands · <b>Shift + Return</b> for a new line' : '<b>Shift + Return</b> for a new line'}</span><button type="button" class="send-btn" data-op="send" aria-label="Send now">➤</button></div>
</div></div>`;
}

function renderMain() {
  const main = $('#main');
  const keepDraft = $('.composer-wrap[data-scope="main"] textarea')?.value ?? '';
  if (S.place.kind === 'channel') {
    const c = S.channels.get(S.place.id);
    if (!c) {
      main.innerHTML = '<div class="empty-state">This channel does not exist.</div>';
      return;
    }
    document.title = `#${c.name} · ${S.boot.team.name}`;
    main.innerHTML = `<div class="channel-header"><h1 class="channel-title"><span>${c.kind === 'private' ? ICONS.lock : '#'}</span>${escapeHtml(c.name)}</h1><span class="channel-topic">${escapeHtml(c.purpose || c.topic || '')}</span><span class="channel-members" title="Members">${ICONS.members} ${c.members}</span></div>
<div class="messages" role="list" aria-label="Messages in #${escapeHtml(c.name)}"></div>
${composerHtml(`Message #${c.name}`, 'main')}`;
    renderChannelMessages(true);
  } else {
    const tab = S.place.tab;
    document.title = `${S.boot.app.name} · ${S.boot.team.name}`;
    const tabs = ['home', 'messages', 'about']
      .map(
        (t) =>
          `<button type="button" class="tab" role="tab" data-go="app/${t}" aria-selected="${t === tab}">${t === 'home' ? 'Home' : t === 'messages' ? 'Messages' : 'About'}</button>`,
      )
      .join('');
    let body;
    if (tab === 'messages') {
      body = `<div class="messages" role="list" aria-label="Messages with ${escapeHtml(S.boot.app.name)}"></div>${composerHtml(`Message ${S.boot.app.name}`, 'main')}`;
    } else if (tab === 'about') {
      body = `<div class="about"><p><b>${escapeHtml(S.boot.app.name)}</b> is installed in ${escapeHtml(S.boot.team.name)}.</p>${S.boot.commands
        .map(
          (c) =>
            `<p><b>${escapeHtml(c.command)}</b> <span class="slash-usage">${escapeHtml(c.usageHint)}</span><br><span class="channel-topic">${escapeHtml(c.description)}</span></p>`,
        )
        .join('')}</div>`;
    } else {
      body = `<div class="home" data-view-id="${escapeHtml(S.views.home?.id ?? '')}"></div>`;
    }
    main.innerHTML = `<div class="channel-header"><h1 class="channel-title"><div class="avatar bot side-avatar">${BOT_ICON}</div>${escapeHtml(S.boot.app.name)}</h1><span class="app-badge">App</span></div>
<div class="tabs" role="tablist">${tabs}</div>${body}`;
    if (tab === 'messages') renderChannelMessages(true);
    if (tab === 'home') renderHome();
  }
  const draft = $('.composer-wrap[data-scope="main"] textarea');
  if (draft && keepDraft) draft.value = keepDraft;
  renderSidebar();
}

function renderChannelMessages(scrollToEnd = false) {
  const box = $('#main .messages');
  const channelId = currentChannelId();
  if (!box || !channelId) return;
  const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  const c = S.channels.get(channelId);
  const intro = c
    ? `<div class="channel-intro"><h2>#${escapeHtml(c.name)}</h2><p>This is the very beginning of the <a href="#/${c.id}">#${escapeHtml(c.name)}</a> channel.${c.purpose ? ` ${escapeHtml(c.purpose)}.` : ''}</p></div>`
    : `<div class="channel-intro"><h2>${escapeHtml(S.boot.app.name)}</h2><p>This is your conversation with the app. Slash commands work here too.</p></div>`;
  box.innerHTML = intro + messageListHtml(channelMessages(channelId));
  paintAttachments(box);
  if (scrollToEnd || atEnd) box.scrollTop = box.scrollHeight;
}

/** How long after a send the next message in the channel counts as its answer. */
const ANSWER_WAIT_MS = 60_000;

/**
 * Shows the answer to what I sent: the bottom of the channel, or the answer's first line when it is taller
 * than the pane (a long answer read from its end would hide what it starts with).
 */
function scrollToAnswer(message, ephemeral) {
  const box = $('#main .messages');
  const el = /** @type {HTMLElement | null | undefined} */ (
    box?.querySelector(
      `.msg[data-ts="${CSS.escape(message.ts)}"]${ephemeral ? '[data-eph="1"]' : ':not([data-eph])'}`,
    )
  );
  if (!box || !el) return;
  const top = el.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
  box.scrollTop = el.offsetHeight > box.clientHeight - 16 ? top - 8 : box.scrollHeight;
}

function renderHome() {
  const box = $('#main .home');
  if (!box) return;
  const home = S.views.home;
  box.dataset.viewId = home?.id ?? '';
  box.innerHTML = home
    ? renderBlocks(home.blocks, renderCtx({ valueOf: (b, a) => typedValue(home, b, a) }))
    : `<div class="home-empty"><div class="avatar bot">${BOT_ICON}</div><p><b>${escapeHtml(S.boot.app.name)}</b> has not published a Home tab for you yet.</p></div>`;
}

function renderThread() {
  const panel = $('#thread');
  if (!S.thread) {
    panel.hidden = true;
    panel.innerHTML = '';
    delete panel.dataset.key;
    return;
  }
  const { channel, ts } = S.thread;
  const list = threadMessages(channel, ts);
  const replies = list.filter((m) => m.ts !== ts && !m.is_ephemeral).length;
  const divider = `<div class="reply-divider">${replies} ${replies === 1 ? 'reply' : 'replies'}</div>`;
  const body = list.length
    ? messageListHtml(list, { inThread: true, afterFirst: divider })
    : '<div class="empty-state">This message is gone.</div>';
  const key = `${channel}/${ts}`;
  panel.hidden = false;
  if (panel.dataset.key !== key) {
    // A new thread: the whole panel. The same thread: only its messages, so a reply being typed keeps focus.
    panel.dataset.key = key;
    panel.innerHTML = `<div class="thread-head"><h2>Thread</h2><span class="where">${escapeHtml(channelLabel(channel))}</span><button type="button" class="icon-btn" data-op="close-thread" aria-label="Close thread">×</button></div>
<div class="messages" role="list" aria-label="Thread"></div>
${composerHtml('Reply…', 'thread')}`;
  }
  const box = $('.messages', panel);
  box.innerHTML = body;
  paintAttachments(box);
  box.scrollTop = box.scrollHeight;
}

function paintAttachments(root) {
  for (const el of $$('.att[data-color]', root)) el.style.borderLeftColor = el.dataset.color;
}

// ---------------------------------------------------------------------------------------------------------
// Views: modals and Home

function topView() {
  return S.views.stack.at(-1);
}

function stateValue(v) {
  if (!v) return undefined;
  if ('value' in v) return v.value ?? '';
  if ('selected_option' in v) return v.selected_option?.value ?? '';
  if ('selected_options' in v) return (v.selected_options ?? []).map((o) => o.value);
  for (const key of [
    'selected_date',
    'selected_time',
    'selected_user',
    'selected_conversation',
    'selected_channel',
  ]) {
    if (key in v) return v[key] ?? '';
  }
  if ('selected_users' in v) return v.selected_users ?? [];
  if ('selected_date_time' in v) return v.selected_date_time == null ? '' : String(v.selected_date_time);
  return undefined;
}

/** What an element shows: what I typed here, else what the view's state holds, else its initial value. */
function typedValue(view, blockId, actionId) {
  const mine = S.typed.get(view.id)?.[blockId]?.[actionId];
  if (mine !== undefined) return mine;
  return stateValue(view.state?.values?.[blockId]?.[actionId]);
}

function remember(viewId, blockId, actionId, value) {
  const typed = S.typed.get(viewId) ?? {};
  typed[blockId] ??= {};
  typed[blockId][actionId] = value;
  S.typed.set(viewId, typed);
}

async function base64Of(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Uploads what was picked in a file_input, as Slack does before the modal is submitted, up to max_files. */
async function uploadPicked(input) {
  const host = input.closest('[data-action]');
  const viewRoot = host?.closest('.modal[data-view-id]');
  if (!host || !viewRoot) return;
  const files = JSON.parse(host.dataset.files || '[]');
  const room = Number(host.dataset.max || 10) - files.length;
  for (const file of [...input.files].slice(0, Math.max(0, room))) {
    const data = await api('upload', { user: S.me, name: file.name, base64: await base64Of(file) });
    files.push({ id: data.id, name: data.name });
  }
  // The page keeps the uploads as the input's value; what is submitted is their ids, expanded by the workspace.
  remember(viewRoot.dataset.viewId, host.dataset.block, host.dataset.action, files);
  renderModal(true);
}

function readElement(el) {
  switch (el.dataset.type) {
    case 'radio_buttons':
      return el.querySelector('input:checked')?.value ?? '';
    case 'checkboxes':
      return $$('input:checked', el).map((i) => i.value);
    case 'multi_static_select':
    case 'multi_users_select':
      return [...el.selectedOptions].map((o) => o.value);
    case 'file_input':
      return JSON.parse(el.dataset.files || '[]').map((f) => f.id);
    case 'datetimepicker':
      return zonedSeconds(el.value, el.dataset.tz || 'UTC');
    default:
      return el.value ?? '';
  }
}

/** Every stateful element of a view as Slack submits it; an emptied field is null, not its initial value. */
function collectValues(root) {
  const values = {};
  for (const el of $$('[data-action]', root)) {
    if (!STATEFUL.has(el.dataset.type)) continue;
    const value = readElement(el);
    values[el.dataset.block] ??= {};
    values[el.dataset.block][el.dataset.action] = value === '' ? null : value;
  }
  return values;
}

function focusKey(el) {
  const host = el.closest('[data-action]');
  if (!host) return undefined;
  return {
    block: host.dataset.block,
    action: host.dataset.action,
    value: el.value,
    start: el.selectionStart,
    end: el.selectionEnd,
    tag: el.tagName,
  };
}

function restoreFocus(root, key) {
  if (!key) return;
  const host = $$('[data-action]', root).find(
    (e) => e.dataset.block === key.block && e.dataset.action === key.action,
  );
  if (!host) return;
  /** @type {HTMLInputElement} */
  const target = host.matches('input, textarea, select') ? host : $(`${key.tag.toLowerCase()}`, host);
  if (!target) return;
  target.focus({ preventScroll: true });
  if (typeof key.start === 'number' && target.setSelectionRange && target.value === key.value) {
    try {
      target.setSelectionRange(key.start, key.end);
    } catch {
      // not a text field
    }
  }
}

function renderModal(force = false) {
  const root = $('#modal-root');
  const view = topView();
  if (!view) {
    root.innerHTML = '';
    S.modalKey = '';
    return;
  }
  const errors = S.errors.get(view.id) ?? {};
  const banner = S.banner.get(view.id);
  const key = JSON.stringify([view.id, view.hash, errors, banner, S.submitting, S.views.stack.length]);
  if (!force && key === S.modalKey) return;
  S.modalKey = key;
  const active = document.activeElement?.closest?.('.modal') ? focusKey(document.activeElement) : undefined;
  const scroll = $('.modal-body', root)?.scrollTop ?? 0;
  const sameView = $('.modal', root)?.dataset.viewId === view.id;
  const title = textOf(view.title);
  const ctx = renderCtx({ valueOf: (b, a) => typedValue(view, b, a), errors });
  const back =
    S.views.stack.length > 1
      ? '<button type="button" class="modal-back" data-op="modal-close" aria-label="Back">‹</button>'
      : '';
  const submit = view.submit
    ? `<button type="button" class="modal-btn primary${S.submitting === view.id ? ' busy' : ''}" data-op="modal-submit">${plainText(textOf(view.submit))}</button>`
    : '';
  root.innerHTML = `<div class="modal-backdrop"><div class="modal" role="dialog" aria-modal="true" aria-labelledby="modal-title" data-view-id="${escapeHtml(view.id)}">
<div class="modal-head">${back}<div class="avatar bot">${BOT_ICON}</div><h1 class="modal-title" id="modal-title">${plainText(title)}</h1><button type="button" class="icon-btn" data-op="modal-x" aria-label="Close">×</button></div>
<div class="modal-body">${banner ? `<div class="modal-banner" role="alert">${escapeHtml(banner)}</div>` : ''}${renderBlocks(view.blocks, ctx)}</div>
<div class="modal-foot"><button type="button" class="modal-btn" data-op="modal-close">${plainText(textOf(view.close) || 'Cancel')}</button>${submit}</div>
</div></div>`;
  paintAttachments(root);
  if (sameView) $('.modal-body', root).scrollTop = scroll;
  if (S.scrollToError) {
    S.scrollToError = false;
    $('.bk-has-error', root)?.scrollIntoView({ block: 'nearest' });
  }
  if (active) restoreFocus(root, active);
  else if (!sameView) $('.modal-body input, .modal-body textarea', root)?.focus({ preventScroll: true });
}

/** A snapshot of my views (stack and Home); an older one than what is shown is ignored. */
function applyViews(snapshot) {
  if (!snapshot || snapshot.userId !== S.me || snapshot.seq < S.views.seq) return;
  const homeChanged = (snapshot.home?.hash ?? '') !== (S.views.home?.hash ?? '');
  S.views = { seq: snapshot.seq, stack: snapshot.stack ?? [], home: snapshot.home ?? null };
  const open = new Set(S.views.stack.map((v) => v.id));
  if (S.views.home) open.add(S.views.home.id);
  for (const map of [S.typed, S.errors, S.banner]) {
    for (const id of map.keys()) if (!open.has(id)) map.delete(id);
  }
  renderModal();
  if (homeChanged && S.place.kind === 'app' && S.place.tab === 'home') renderHome();
}

function confirmDialog(confirm) {
  return new Promise((resolve) => {
    const root = $('#overlay-root');
    const danger = confirm.style === 'danger';
    root.innerHTML = `<div class="modal-backdrop"><div class="modal confirm" role="alertdialog" aria-modal="true" aria-labelledby="confirm-title">
<div class="modal-head"><h1 class="modal-title" id="confirm-title">${plainText(textOf(confirm.title) || 'Are you sure?')}</h1></div>
<div class="modal-body">${textObject(confirm.text, renderCtx())}</div>
<div class="modal-foot"><button type="button" class="modal-btn" data-answer="no">${plainText(textOf(confirm.deny) || 'Cancel')}</button><button type="button" class="modal-btn ${danger ? 'danger' : 'primary'}" data-answer="yes">${plainText(textOf(confirm.confirm) || 'Yes')}</button></div>
</div></div>`;
    const done = (answer) => {
      root.innerHTML = '';
      resolve(answer);
    };
    root.querySelector('[data-answer="no"]').addEventListener('click', () => done(false));
    root.querySelector('[data-answer="yes"]').addEventListener('click', () => done(true));
    $('[data-answer="no"]', root).focus();
  });
}

function menu(anchor, options) {
  return new Promise((resolve) => {
    const root = $('#overlay-root');
    const rect = anchor.getBoundingClientRect();
    root.innerHTML = `<div class="menu" role="menu">${options
      .map(
        (o, i) =>
          `<button type="button" role="menuitem" data-index="${i}">${textObject(o.text, renderCtx())}</button>`,
      )
      .join('')}</div>`;
    const el = $('.menu', root);
    el.style.top = `${Math.min(rect.bottom + 4, window.innerHeight - el.offsetHeight - 8)}px`;
    el.style.left = `${Math.max(8, rect.right - el.offsetWidth)}px`;
    const close = (value) => {
      root.innerHTML = '';
      document.removeEventListener('mousedown', outside, true);
      resolve(value);
    };
    const outside = (event) => {
      if (!el.contains(event.target)) close(undefined);
    };
    document.addEventListener('mousedown', outside, true);
    el.addEventListener('click', (event) => {
      const button = /** @type {HTMLElement} */ (event.target).closest('[data-index]');
      if (button) close(options[Number(button.dataset.index)]);
    });
  });
}

// ---------------------------------------------------------------------------------------------------------
// Interactions

function choiceOf(el) {
  const value = readElement(el);
  const type = el.dataset.type;
  if (['checkboxes', 'multi_static_select', 'multi_users_select'].includes(type)) {
    return { selectedOptions: value.map((v) => ({ value: v })) };
  }
  if (['static_select', 'radio_buttons', 'external_select'].includes(type)) {
    return value === '' ? {} : { selectedOption: { value } };
  }
  if (type === 'button') return {};
  return { value };
}

async function sendAction(body, button) {
  button?.classList.add('busy');
  try {
    const result = await api('action', { user: S.me, ...body });
    if (!result.ok) toast(`${S.boot.app.name} did not respond in time. Try again?`);
  } catch (error) {
    toast(`Could not send the action: ${error.message}`);
  } finally {
    button?.classList.remove('busy');
  }
}

/** An element on a modal or the Home tab was used: block_actions with the view and its current state. */
async function viewAction(el, viewRoot, extra = {}) {
  const viewId = viewRoot.dataset.viewId;
  const view =
    S.views.stack.find((v) => v.id === viewId) ?? (S.views.home?.id === viewId ? S.views.home : undefined);
  if (!view) return;
  const found = findElement(view.blocks, el.dataset.block, el.dataset.action);
  if (found?.element.confirm && !(await confirmDialog(found.element.confirm))) return;
  if (found?.element.url) window.open(found.element.url, '_blank', 'noopener');
  await sendAction(
    {
      viewId,
      blockId: el.dataset.block,
      actionId: el.dataset.action,
      values: collectValues(viewRoot),
      ...choiceOf(el),
      ...extra,
    },
    el.dataset.type === 'button' ? el : undefined,
  );
}

/** An element on a message was used: block_actions with the message, a response_url and a trigger_id. */
async function messageAction(el, msgEl, extra = {}) {
  const { channel, ts } = msgEl.dataset;
  const ephemeral = msgEl.dataset.eph === '1';
  const message = findMessage(channel, ts, ephemeral);
  if (!message) return;
  const found = findElement(message.blocks, el.dataset.block, el.dataset.action);
  if (found?.element.confirm && !(await confirmDialog(found.element.confirm))) return;
  if (found?.element.url) window.open(found.element.url, '_blank', 'noopener');
  await sendAction(
    {
      channel,
      ts,
      ephemeral,
      blockId: el.dataset.block,
      actionId: el.dataset.action,
      ...choiceOf(el),
      ...extra,
    },
    el.dataset.type === 'button' ? el : undefined,
  );
}

function containerOf(el) {
  const viewRoot = el.closest('.modal[data-view-id], .home[data-view-id]');
  if (viewRoot) return { kind: 'view', root: viewRoot };
  const msg = el.closest('.msg');
  return msg ? { kind: 'message', root: msg } : undefined;
}

async function useElement(el, extra = {}) {
  const container = containerOf(el);
  if (!container) return;
  if (container.kind === 'view') await viewAction(el, container.root, extra);
  else await messageAction(el, container.root, extra);
}

function requiredErrors(view, values) {
  const errors = {};
  for (const block of view.blocks) {
    if (block.type !== 'input' || !block.element) continue;
    const value = values[block.block_id]?.[block.element.action_id];
    const empty = value === null || value === undefined || (Array.isArray(value) && value.length === 0);
    if (empty && !block.optional) {
      errors[block.block_id] = 'Please complete this required field.';
      continue;
    }
    const textual = ['plain_text_input', 'email_text_input', 'url_text_input'].includes(block.element.type);
    if (textual && typeof value === 'string' && value !== '') {
      // Slack's client holds a text outside min_length..max_length back (a prefilled one may be too long).
      const length = [...value].length;
      const { max_length: max, min_length: min } = block.element;
      if (max !== undefined && length > max) {
        errors[block.block_id] = `Please enter no more than ${max} characters (${length} now).`;
      } else if (min !== undefined && length < min) {
        errors[block.block_id] = `Please enter at least ${min} characters.`;
      }
      continue;
    }
    if (block.element.type === 'number_input' && typeof value === 'string') {
      const n = Number(value);
      const { min_value: min, max_value: max, is_decimal_allowed: decimal } = block.element;
      const whole = decimal || Number.isInteger(n);
      if (!Number.isFinite(n) || !whole) {
        errors[block.block_id] = decimal ? 'Please enter a number.' : 'Please enter a whole number.';
      } else if ((min !== undefined && n < Number(min)) || (max !== undefined && n > Number(max))) {
        errors[block.block_id] = `Please enter a number between ${min ?? '−∞'} and ${max ?? '∞'}.`;
      }
    }
  }
  return errors;
}

async function submitModal() {
  const view = topView();
  const root = $('.modal');
  if (!view || !root || S.submitting) return;
  const values = collectValues(root);
  const local = requiredErrors(view, values);
  S.banner.delete(view.id);
  if (Object.keys(local).length) {
    S.errors.set(view.id, local);
    S.scrollToError = true;
    renderModal(true);
    return;
  }
  S.submitting = view.id;
  renderModal(true);
  try {
    const result = await api('submit', { user: S.me, viewId: view.id, values });
    const outcome = result.outcome;
    if (outcome.kind === 'errors') {
      S.errors.set(view.id, outcome.errors);
      S.scrollToError = true;
    } else S.errors.delete(view.id);
    if (outcome.kind === 'failed') S.banner.set(view.id, 'We had some trouble connecting. Try again?');
    S.submitting = null;
    applyViews(result);
  } catch (error) {
    S.banner.set(view.id, `We had some trouble connecting. Try again? (${error.message})`);
  } finally {
    S.submitting = null;
    renderModal(true);
  }
}

async function closeModal() {
  const view = topView();
  if (!view) return;
  try {
    applyViews(await api('close', { user: S.me, viewId: view.id }));
  } catch (error) {
    toast(error.message);
  }
}

const debouncers = new Map();
function debounced(key, fn) {
  clearTimeout(debouncers.get(key));
  debouncers.set(key, setTimeout(fn, DISPATCH_DEBOUNCE_MS));
}

function onViewInput(event) {
  const el = event.target.closest('[data-action]');
  const viewRoot = el?.closest('.modal[data-view-id], .home[data-view-id]');
  if (!el || !viewRoot || !STATEFUL.has(el.dataset.type)) return;
  // A file_input's value changes once its upload is done (uploadPicked), not as the picker changes.
  if (el.dataset.type === 'file_input') return;
  remember(viewRoot.dataset.viewId, el.dataset.block, el.dataset.action, readElement(el));
  const errors = S.errors.get(viewRoot.dataset.viewId);
  if (errors?.[el.dataset.block]) {
    delete errors[el.dataset.block];
    el.closest('.bk-input-block')?.classList.remove('bk-has-error');
    el.closest('.bk-input-block')?.querySelector('.bk-error')?.remove();
    S.modalKey = '';
  }
  const dispatch = el.dataset.dispatch ?? '';
  const textual =
    event.type === 'input' &&
    el.matches('input[type="text"], input[type="email"], input[type="url"], textarea');
  if (textual && dispatch.includes('on_character_entered')) {
    // Not once the element has left the screen (the form was submitted or replaced meanwhile): the server
    // would refuse an action on an element no longer shown, and the user would see that refusal as a toast.
    debounced(`${viewRoot.dataset.viewId}/${el.dataset.block}/${el.dataset.action}`, () => {
      if (el.isConnected) void useElement(el);
    });
  } else if (event.type === 'change' && !textual && dispatch.includes('on_change')) {
    useElement(el);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Composer

function commandMatches(text) {
  const commands = S.boot?.commands ?? [];
  const typing = /^\/(\S*)$/.exec(text);
  if (typing) return { items: commands.filter((c) => c.command.startsWith(`/${typing[1]}`)), exact: false };
  const args = /^(\/\S+)\s/.exec(text);
  if (args) return { items: commands.filter((c) => c.command === args[1]), exact: true };
  return { items: [], exact: false };
}

function updateSlashPopup(wrap) {
  const textarea = $('textarea', wrap);
  const popup = $('.slash-popup', wrap);
  const { items, exact } = wrap.dataset.scope === 'main' ? commandMatches(textarea.value) : { items: [] };
  if (items.length === 0) {
    popup.hidden = true;
    popup.innerHTML = '';
    return;
  }
  const head = exact ? '' : '<div class="slash-head">Commands</div>';
  popup.innerHTML =
    head +
    items
      .map(
        (c, i) =>
          `<div class="slash-item${i === 0 ? ' selected' : ''}" data-command="${escapeHtml(c.command)}"><div class="slash-main"><span class="slash-name">${escapeHtml(c.command)}</span><span class="slash-usage">${escapeHtml(c.usageHint)}</span><span class="slash-desc">${escapeHtml(c.description)}</span></div><span class="slash-app">${escapeHtml(S.boot.app.name)}</span></div>`,
      )
      .join('');
  popup.hidden = false;
}

function autosize(textarea) {
  textarea.style.height = 'auto';
  textarea.style.height = `${Math.min(textarea.scrollHeight, 220)}px`;
}

async function sendFromComposer(wrap) {
  const textarea = $('textarea', wrap);
  const text = textarea.value.trim();
  if (!text) return;
  const inThread = wrap.dataset.scope === 'thread';
  const channel = inThread ? S.thread.channel : currentChannelId();
  const threadTs = inThread ? S.thread.ts : undefined;
  textarea.value = '';
  autosize(textarea);
  updateSlashPopup(wrap);
  $('.send-btn', wrap).classList.remove('ready');
  if (!inThread) {
    // As Slack does: sending jumps to the bottom, wherever the channel had been scrolled to.
    S.awaitingAnswer = { channel, until: Date.now() + ANSWER_WAIT_MS };
    const box = $('#main .messages');
    if (box) box.scrollTop = box.scrollHeight;
  }
  try {
    if (text.startsWith('/')) await api('command', { user: S.me, channel, text, threadTs });
    else await api('message', { user: S.me, channel, text, threadTs });
  } catch (error) {
    toast(error.message);
    textarea.value = text;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Simulator panel

function renderSimPanel() {
  const panel = $('#sim-panel');
  if (!S.boot.simulator) {
    panel.innerHTML = `<h2>Local tools<button type="button" class="icon-btn" data-op="sim-close" aria-label="Close local tools">×</button></h2>
${stepFieldset()}`;
    return;
  }
  panel.innerHTML = `<h2>Gateway simulator<button type="button" class="icon-btn" data-op="sim-close" aria-label="Close simulator">×</button></h2>
<p class="sim-note">Local tools, not part of Slack: they drive the simulated SMS gateway the bot talks to.</p>
<fieldset><legend>Inbound SMS</legend>
<label for="sim-msisdn">From (MSISDN)</label><input id="sim-msisdn" value="905321234567" autocomplete="off">
<label for="sim-text">Text</label><textarea id="sim-text">Is my order ready?</textarea>
<button type="button" class="sim-go" data-sim="inbound">Inject inbound SMS</button>
<p class="sim-note">The bot picks it up at its next Receive poll.</p>
</fieldset>
<fieldset><legend>Deliveries</legend>
<label for="sim-deliver">Delivered share (%)</label><input id="sim-deliver" type="number" min="0" max="100" value="90">
<button type="button" class="sim-go" data-sim="advance">Advance deliveries</button>
<p class="sim-note">Delivery cards update at the bot's next poll (within about 15 s), or press Refresh on a card.</p>
</fieldset>
<fieldset><legend>Fault</legend>
<label for="sim-operation">Operation</label><select id="sim-operation"><option value="">(any)</option>${S.boot.simulator.operations.map((o) => `<option>${o}</option>`).join('')}</select>
<div class="row"><div><label for="sim-kind">Kind</label><select id="sim-kind"><option>timeout</option><option>http500</option><option>notjson</option><option>status</option><option>trickle</option></select></div>
<div><label for="sim-times">Times</label><input id="sim-times" type="number" min="1" value="1"></div></div>
<button type="button" class="sim-go" data-sim="fault">Inject fault</button>
</fieldset>
<fieldset><legend>Account</legend><div class="row"><button type="button" class="sim-go" data-sim="state">Show balance</button><button type="button" class="sim-go" data-sim="reset">Reset</button></div></fieldset>
<div id="sim-result" class="sim-result" role="status" aria-live="polite"></div>
${stepFieldset()}`;
}

/** The workflow step panel: runs one of the app's custom steps as a workflow would, and shows how the app ended it. */
function stepFieldset() {
  const steps = S.boot.functions ?? [];
  if (steps.length === 0) return '';
  return `<fieldset class="step-panel"><legend>Workflow step</legend>
<p class="sim-note">Fires <code>function_executed</code> as Workflow Builder does, and shows the step's outputs or error.</p>
<label for="step-id">Step</label><select id="step-id">${steps.map((f) => `<option value="${escapeHtml(f.callbackId)}">${escapeHtml(f.title)}</option>`).join('')}</select>
<div id="step-inputs">${stepInputs(steps[0])}</div>
<button type="button" class="sim-go" data-step="run">Run step</button>
<div id="step-result" class="sim-result" role="status" aria-live="polite"></div>
</fieldset>`;
}

function stepInputs(definition) {
  return definition.inputs
    .map((p) => {
      const id = `step-in-${p.name}`;
      const value = p.type === 'slack#/types/user_id' ? S.me : '';
      const label = `${escapeHtml(p.title ?? p.name)}${p.is_required ? '' : ' (optional)'}`;
      return `<label for="${id}">${label}</label><input id="${id}" data-input="${escapeHtml(p.name)}" value="${escapeHtml(value)}" autocomplete="off"${p.description ? ` title="${escapeHtml(p.description)}"` : ''}>`;
    })
    .join('');
}

async function runStep() {
  const result = $('#step-result');
  result.classList.remove('error');
  result.textContent = '…';
  const inputs = {};
  for (const input of $$('#step-inputs [data-input]')) inputs[input.dataset.input] = input.value;
  try {
    const r = await api('step', { user: S.me, callbackId: $('#step-id').value, inputs });
    if (r.state === 'completed') {
      result.textContent = `Completed · outputs ${JSON.stringify(r.outputs)}`;
    } else {
      result.classList.add('error');
      result.textContent = r.state === 'failed' ? `Failed · ${r.error}` : `Still running · ${r.error}`;
    }
  } catch (error) {
    result.classList.add('error');
    result.textContent = error.message;
  }
}

async function simulator(op) {
  const result = $('#sim-result');
  result.classList.remove('error');
  result.textContent = '…';
  try {
    let text;
    if (op === 'inbound') {
      const r = await api('sim/inbound', { MSISDN: $('#sim-msisdn').value, Text: $('#sim-text').value });
      text = `Inbound SMS ${r.ids.join(', ')} is waiting at the gateway.`;
    } else if (op === 'advance') {
      const deliver = Math.max(0, Math.min(100, Number($('#sim-deliver').value) || 0)) / 100;
      const r = await api('sim/advance', { deliver });
      text = `Advanced: ${r.delivered} delivered, ${r.undelivered} undelivered in ${r.batches.length} batch${r.batches.length === 1 ? '' : 'es'}.`;
    } else if (op === 'fault') {
      const operation = $('#sim-operation').value;
      const r = await api('sim/fault', {
        ...(operation ? { operation } : {}),
        kind: $('#sim-kind').value,
        times: Number($('#sim-times').value) || 1,
      });
      text = `Fault armed (${r.faults.length} pending): ${$('#sim-kind').value} on ${operation || 'any operation'}.`;
    } else if (op === 'state') {
      const r = await api('sim/state');
      const balance = r.balance ?? {};
      text = `Balance ${balance.main ?? '?'} (limit ${balance.limit ?? 0}) · ${r.batches?.length ?? 0} batches · ${r.inbound?.length ?? 0} inbound SMS`;
    } else {
      await api('sim/reset', {});
      text = 'Simulator reset.';
    }
    result.textContent = text;
  } catch (error) {
    result.classList.add('error');
    result.textContent = error.message;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Navigation and loading

async function loadChannel(channelId) {
  if (!channelId) return;
  const asked = S.generation;
  mergeSnapshot(channelId, await api(`history?${q({ user: S.me, channel: channelId })}`), asked);
}

async function loadThread(channel, ts) {
  const asked = S.generation;
  mergeSnapshot(channel, await api(`thread?${q({ user: S.me, channel, ts })}`), asked);
}

/** A snapshot answers after the events that the stream delivered while it was on its way: a message the stream
 * changed after the snapshot's sequence number keeps what the stream said. One asked for before a resync (a
 * reconnect, another user) is dropped whole: the resync forgot what the stream had said, and asks again. */
function mergeSnapshot(channelId, { seq, messages }, asked) {
  if (asked !== S.generation) return;
  const box = bucket(S.msgs, channelId);
  const seen = bucket(S.msgSeq, channelId);
  for (const m of messages) {
    if ((seen.get(m.ts) ?? 0) > seq) continue;
    box.set(m.ts, m);
  }
}

async function go(target) {
  const [first, second] = target.split('/');
  if (first === 'app') {
    S.place = {
      kind: 'app',
      id: null,
      tab: ['home', 'messages', 'about'].includes(second) ? second : 'home',
    };
    if (S.place.tab === 'messages') {
      await loadChannel(S.boot.appDm);
      S.unread.delete(S.boot.appDm);
    }
    if (S.place.tab === 'home') api('home', { user: S.me }).catch((error) => toast(error.message));
  } else if (S.channels.has(first) && S.boot.myChannels.includes(first)) {
    S.place = { kind: 'channel', id: first, tab: 'home' };
    S.unread.delete(first);
    await loadChannel(first);
    if (second) await openThread(first, second);
  }
  if (S.thread && S.thread.channel !== currentChannelId()) {
    // As in Slack, a thread belongs to its conversation: going elsewhere closes it.
    S.thread = null;
    renderThread();
  }
  if (location.hash !== `#/${target}`) history.replaceState(null, '', `#/${target}`);
  renderMain();
}

async function openThread(channel, ts) {
  S.thread = { channel, ts };
  await loadThread(channel, ts);
  renderThread();
}

async function bootstrap() {
  S.boot = await api(`bootstrap?${q({ user: S.me })}`);
  S.users = new Map(S.boot.users.map((u) => [u.id, u]));
  S.channels = new Map(S.boot.channels.map((c) => [c.id, c]));
  $('#team-name').textContent = S.boot.team.name;
  $('#search-label').textContent = `Search ${S.boot.team.name}`;
  const switcher = $('#user-switch');
  switcher.innerHTML = S.boot.users
    .filter((u) => !u.isBot)
    .map(
      (u) =>
        `<option value="${escapeHtml(u.id)}"${u.id === S.me ? ' selected' : ''}>${escapeHtml(u.realName)}${u.isAdmin ? ' (admin)' : ''}</option>`,
    )
    .join('');
  $('#sim-toggle').hidden = !S.boot.simulator && !(S.boot.functions ?? []).length;
  const views = await api(`views?${q({ user: S.me })}`);
  S.views.seq = 0;
  applyViews(views);
}

/** Loads everything again (first load, a reconnect, another user). Ephemerals stay: like Slack's client, the
 * page keeps the ones it saw arrive, and a reload loses them. */
async function resync() {
  S.generation += 1;
  S.msgs.clear();
  S.msgSeq.clear();
  await bootstrap();
  const target = location.hash.replace(/^#\//, '') || 'C0SMSOPS';
  await go(target);
  if (S.thread) await openThread(S.thread.channel, S.thread.ts);
}

function connectEvents() {
  const source = new EventSource('/_ws/events');
  source.addEventListener('hello', () => {
    if (S.connectedOnce) resync().catch((error) => toast(error.message));
    S.connectedOnce = true;
  });
  source.addEventListener('msg', (event) => onMessageEvent(JSON.parse(event.data), false));
  source.addEventListener('eph', (event) => onMessageEvent(JSON.parse(event.data), true));
  source.addEventListener('views', (event) => {
    const data = JSON.parse(event.data);
    if (S.boot && data.userId === S.me) applyViews(data);
  });
}

function onMessageEvent({ seq, action, message }, ephemeral) {
  if (!S.boot || (ephemeral && message.recipient !== S.me)) return;
  const box = bucket(ephemeral ? S.eph : S.msgs, message.channel);
  if (action === 'deleted') box.delete(message.ts);
  else box.set(message.ts, message);
  if (!ephemeral) bucket(S.msgSeq, message.channel).set(message.ts, seq);
  const inCurrent = message.channel === currentChannelId();
  const inThread =
    S.thread &&
    message.channel === S.thread.channel &&
    (message.ts === S.thread.ts || message.thread_ts === S.thread.ts);
  if (inCurrent && (isTopLevel(message) || !ephemeral)) renderChannelMessages();
  if (inThread) renderThread();
  const mine = message.user === S.me;
  const awaited = S.awaitingAnswer;
  if (inCurrent && action === 'posted' && isTopLevel(message) && awaited?.channel === message.channel) {
    if (Date.now() > awaited.until) S.awaitingAnswer = null;
    else if (mine && !ephemeral) scrollToAnswer(message, false);
    else {
      S.awaitingAnswer = null;
      scrollToAnswer(message, ephemeral);
    }
  }
  if (!inCurrent && action === 'posted' && !ephemeral && isTopLevel(message) && !mine) {
    S.unread.set(message.channel, (S.unread.get(message.channel) ?? 0) + 1);
    renderSidebar();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Wiring

function wire() {
  document.addEventListener('click', async (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    const goTo = target.closest('[data-go]');
    if (goTo) {
      event.preventDefault();
      await go(goTo.dataset.go);
      return;
    }
    const channelLink = target.closest('a.mk-channel');
    if (channelLink) {
      event.preventDefault();
      await go(channelLink.getAttribute('href').replace(/^#\//, ''));
      return;
    }
    const op = target.closest('[data-op]')?.dataset.op;
    if (op === 'open-thread') {
      const msg = target.closest('.msg');
      await openThread(msg.dataset.channel, msg.dataset.ts);
      return;
    }
    if (op === 'close-thread') {
      S.thread = null;
      renderThread();
      return;
    }
    if (op === 'dismiss') {
      const msg = target.closest('.msg');
      await api('dismiss', { user: S.me, channel: msg.dataset.channel, ts: msg.dataset.ts }).catch(
        () => undefined,
      );
      return;
    }
    if (op === 'send') {
      await sendFromComposer(target.closest('.composer-wrap'));
      return;
    }
    if (op === 'modal-submit') return submitModal();
    if (op === 'modal-close' || op === 'modal-x') return closeModal();
    if (op === 'sim-close') {
      $('#sim-panel').hidden = true;
      $('#sim-toggle').setAttribute('aria-expanded', 'false');
      return;
    }
    const slash = target.closest('.slash-item');
    if (slash) {
      const wrap = slash.closest('.composer-wrap');
      const textarea = $('textarea', wrap);
      if (!/^\/\S+\s/.test(textarea.value)) textarea.value = `${slash.dataset.command} `;
      textarea.focus();
      updateSlashPopup(wrap);
      return;
    }
    const sim = target.closest('[data-sim]');
    if (sim) return simulator(sim.dataset.sim);
    if (target.closest('[data-step]')) return runStep();
    const element = target.closest('[data-action]');
    if (element?.dataset.type === 'button') return useElement(element);
    if (element?.dataset.type === 'overflow') {
      const container = containerOf(element);
      const blocks =
        container?.kind === 'view'
          ? (S.views.stack.find((v) => v.id === container.root.dataset.viewId) ?? S.views.home)?.blocks
          : findMessage(
              container.root.dataset.channel,
              container.root.dataset.ts,
              container.root.dataset.eph === '1',
            )?.blocks;
      const found = findElement(blocks, element.dataset.block, element.dataset.action);
      const picked = found ? await menu(element, found.element.options ?? []) : undefined;
      if (picked) await useElement(element, { selectedOption: { value: picked.value } });
    }
  });

  document.addEventListener('input', (event) => {
    const target = /** @type {HTMLInputElement} */ (event.target);
    const wrap = target.closest('.composer-wrap');
    if (wrap && target.tagName === 'TEXTAREA') {
      autosize(target);
      updateSlashPopup(wrap);
      $('.send-btn', wrap).classList.toggle('ready', target.value.trim() !== '');
      return;
    }
    onViewInput(event);
  });

  document.addEventListener('change', (event) => {
    const target = /** @type {HTMLInputElement} */ (event.target);
    if (target.classList.contains('bk-file-pick')) {
      uploadPicked(target).catch((error) => toast(`Could not upload: ${error.message}`));
      return;
    }
    if (target.id === 'step-id') {
      const definition = (S.boot.functions ?? []).find((f) => f.callbackId === target.value);
      if (definition) $('#step-inputs').innerHTML = stepInputs(definition);
      return;
    }
    if (target.id === 'user-switch') {
      S.me = target.value;
      S.thread = null;
      S.eph.clear();
      S.typed.clear();
      S.errors.clear();
      S.unread.clear();
      renderThread();
      resync().catch((error) => toast(error.message));
      return;
    }
    const el = target.closest('[data-action]');
    if (!el) return;
    if (containerOf(el)?.kind === 'message') {
      if (STATEFUL.has(el.dataset.type)) useElement(el);
      return;
    }
    onViewInput(event);
  });

  document.addEventListener('keydown', (event) => {
    const target = /** @type {HTMLInputElement} */ (event.target);
    const wrap = target.closest?.('.composer-wrap');
    if (wrap && event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      sendFromComposer(wrap);
      return;
    }
    if (wrap && event.key === 'Tab' && !$('.slash-popup', wrap).hidden) {
      const first = $('.slash-item', wrap);
      const textarea = $('textarea', wrap);
      if (first && /^\/\S*$/.test(textarea.value)) {
        event.preventDefault();
        textarea.value = `${first.dataset.command} `;
        updateSlashPopup(wrap);
      }
      return;
    }
    const link = target.closest?.('[data-go]');
    if (link && event.key === 'Enter') {
      go(link.dataset.go).catch((error) => toast(error.message));
      return;
    }
    const el = target.closest?.('[data-action]');
    if (
      el &&
      event.key === 'Enter' &&
      el.tagName === 'INPUT' &&
      (el.dataset.dispatch ?? '').includes('on_enter_pressed')
    ) {
      event.preventDefault();
      useElement(el);
      return;
    }
    if (event.key === 'Escape' && topView() && !$('#overlay-root').innerHTML) closeModal();
  });

  $('#sim-toggle').addEventListener('click', () => {
    const panel = $('#sim-panel');
    panel.hidden = !panel.hidden;
    $('#sim-toggle').setAttribute('aria-expanded', String(!panel.hidden));
    if (!panel.hidden && !panel.innerHTML) renderSimPanel();
  });

  window.addEventListener('hashchange', () => {
    const target = location.hash.replace(/^#\//, '');
    if (target) go(target).catch((error) => toast(error.message));
  });
}

/** True when the browser draws emoji in colour: a character drawn with no colour font has only grey pixels. */
function hasColorEmoji() {
  const canvas = document.createElement('canvas');
  canvas.width = 24;
  canvas.height = 24;
  const g = canvas.getContext('2d', { willReadFrequently: true });
  if (!g) return true;
  g.font = '20px "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji", sans-serif';
  g.textBaseline = 'top';
  g.fillStyle = '#000';
  g.fillText('\u{1F600}', 0, 0);
  const px = g.getImageData(0, 0, 24, 24).data;
  for (let i = 0; i < px.length; i += 4) {
    if (px[i + 3] > 0 && (Math.abs(px[i] - px[i + 1]) > 24 || Math.abs(px[i + 1] - px[i + 2]) > 24))
      return true;
  }
  return false;
}

async function main() {
  document.body.classList.toggle('no-color-emoji', !hasColorEmoji());
  wire();
  connectEvents();
  await resync();
  document.body.dataset.ready = '1';
}

main().catch((error) => {
  $('#main').innerHTML =
    `<div class="empty-state">The local workspace could not load: ${escapeHtml(error.message)}</div>`;
});
