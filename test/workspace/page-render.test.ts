import { describe, expect, it } from 'vitest';
import { escapeHtml, mrkdwn, renderBlocks, safeUrl } from '../../workspace/page/ui/render.js';

/**
 * The page's renderer is plain ESM over strings, so its escaping is checked here in Node, on every machine;
 * test/browser/render.test.ts runs the same module in chromium where chromium is installed.
 */
const ctx = {
  users: new Map([
    ['U0ADMIN', { id: 'U0ADMIN', name: 'admin' }],
    ['U0ALICE', { id: 'U0ALICE', name: '<b>alice</b>' }],
  ]),
  channels: new Map([['C0SMSOPS', { id: 'C0SMSOPS', name: 'sms-ops' }]]),
  me: 'U0ADMIN',
};

const plain = (text: string) => ({ type: 'plain_text', text });

/** Every tag the renderer opened, with its attributes: what a browser would build from the markup. */
function tags(html: string): string[] {
  return [...html.matchAll(/<([a-z][a-z0-9]*)\b([^>]*)>/gi)].map((m) => `${m[1]!.toLowerCase()}${m[2]}`);
}

/** Nothing that runs script or leaves the page for a non-web scheme. */
function expectNoActiveMarkup(html: string): void {
  for (const tag of tags(html)) {
    expect(tag).not.toMatch(/^(script|iframe|object|embed)\b/);
    expect(tag).not.toMatch(/\son[a-z]+\s*=/i);
    const href = /\shref="([^"]*)"/.exec(tag)?.[1];
    if (href !== undefined) expect(href).toMatch(/^(https?:|mailto:|tel:|#\/)/);
    const src = /\ssrc="([^"]*)"/.exec(tag)?.[1];
    if (src !== undefined) expect(src).toMatch(/^(https?:|\/|data:image\/svg\+xml)/);
  }
}

describe('local workspace page renderer, in Node', () => {
  it('escapes the five HTML characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
    expect(escapeHtml(undefined)).toBe('');
  });

  it('shows Slack’s entities as characters and never lets markup in text run', () => {
    const html = mrkdwn(
      '&lt;script&gt;alert(1)&lt;/script&gt; <img src=x onerror=alert(1)> "q" \'a\' &amp;amp;',
      ctx,
    );
    expectNoActiveMarkup(html);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // A raw `<…>` is a Slack sequence, not markup: shown as text, brackets and all dropped.
    expect(html).toContain(' img src=x onerror=alert(1) ');
    expect(html).not.toMatch(/<img/);
    expect(html).toContain('&quot;q&quot; &#39;a&#39; &amp;amp;');
  });

  it('makes anchors only of web, mail and phone links, with their labels escaped', () => {
    const html = mrkdwn(
      '<https://example.com/a?b=1&amp;c=2|the *docs*> <javascript:alert(1)|click> <https://x.test|<img src=x onerror=alert(1)>> <https://e.test/"onmouseover="x|quote>',
      ctx,
    );
    expectNoActiveMarkup(html);
    expect(html).toContain(
      '<a class="mk-link" href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">the *docs*</a>',
    );
    expect(html).not.toContain('javascript:');
    expect(html).toContain('click');
    expect(html).not.toMatch(/href="[^"]*"onmouseover/);
    expect(safeUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeUrl(' JaVaScRiPt:alert(1)')).toBeUndefined();
    expect(safeUrl('data:text/html,<script>')).toBeUndefined();
  });

  it('names mentioned people and channels with their names escaped, and keeps unknown ones as sent', () => {
    const html = mrkdwn(
      '<@U0ALICE> <@U0ADMIN> <@U0NOBODY|"ghost" & co> <#C0SMSOPS> <#C0OTHER|"other"> <!here>',
      ctx,
    );
    expectNoActiveMarkup(html);
    expect(html).toContain('<span class="mk-mention" data-user="U0ALICE">@&lt;b&gt;alice&lt;/b&gt;</span>');
    expect(html).toContain('<span class="mk-mention mk-me" data-user="U0ADMIN">@admin</span>');
    expect(html).toContain('@&quot;ghost&quot; &amp; co');
    expect(html).toContain('<a class="mk-channel" href="#/C0SMSOPS">#sms-ops</a>');
    expect(html).toContain('#&quot;other&quot;');
    expect(html).toContain('<span class="mk-mention mk-broadcast">@here</span>');
  });

  it('escapes text, attributes and URLs in blocks, and drops script URLs', () => {
    const html = renderBlocks(
      [
        { type: 'header', text: plain('<img src=x onerror=alert(1)> :white_check_mark:') },
        {
          type: 'section',
          text: plain('*not bold* <b>'),
          accessory: { type: 'image', image_url: 'javascript:alert(1)', alt_text: 'x' },
        },
        { type: 'image', image_url: 'https://example.com/a.png', alt_text: '"><script>' },
        {
          type: 'actions',
          block_id: '"><script>',
          elements: [
            { type: 'button', action_id: 'go', text: plain('Go " onclick="x'), url: 'javascript:x' },
          ],
        },
      ],
      ctx,
    );
    expectNoActiveMarkup(html);
    expect(html).not.toContain('javascript:');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('aria-label=":white_check_mark:"');
    expect(html).toContain('*not bold* &lt;b&gt;');
    expect(html).not.toContain('<b>');
    expect(html).toContain('alt="&quot;&gt;&lt;script&gt;"');
    expect(html).toContain('data-block="&quot;&gt;&lt;script&gt;"');
    expect(html).toContain('Go &quot; onclick=&quot;x');
  });
});
