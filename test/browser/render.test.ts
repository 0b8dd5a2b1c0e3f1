import { describe, expect, it } from 'vitest';
import { hasChromium, NO_CHROMIUM_REASON, useWorkspaceInBrowser } from './support.js';

/**
 * The page's Block Kit and mrkdwn renderer, run where it runs: in the browser, as the page loads it. Each case
 * is rendered into a detached element and read back as markup and as the text a person sees.
 */
describe.skipIf(!hasChromium)(
  `Block Kit renderer${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`,
  () => {
    const local = useWorkspaceInBrowser({ expectNoPageErrors: false });

    interface Rendered {
      html: string;
      text: string;
      /** Elements a person could click that run script or leave the page. */
      scripts: number;
    }

    /**
     * Renders mrkdwn (or blocks, when given an array) in the page. The script is a string: vitest rewrites
     * `import()` in test code, and this one must run as the page's own module import.
     */
    function render(input: string | unknown[]): Promise<Rendered> {
      return local.page.evaluate(`(async (value) => {
      const r = await import('/assets/render.js');
      const ctx = {
        users: new Map([
          ['U0ADMIN', { id: 'U0ADMIN', name: 'admin' }],
          ['U0ALICE', { id: 'U0ALICE', name: 'alice' }],
        ]),
        channels: new Map([['C0SMSOPS', { id: 'C0SMSOPS', name: 'sms-ops' }]]),
        me: 'U0ADMIN',
      };
      const div = document.createElement('div');
      div.innerHTML = Array.isArray(value) ? r.renderBlocks(value, ctx) : r.mrkdwn(value, ctx);
      const risky = div.querySelectorAll('script, [onerror], [onclick], iframe').length;
      const links = [...div.querySelectorAll('a')].filter(
        (a) => !/^(https?:|mailto:|tel:|#\\/)/.test(a.getAttribute('href') ?? ''),
      ).length;
      return { html: div.innerHTML, text: div.textContent ?? '', scripts: risky + links };
    })(${JSON.stringify(input)})`);
    }

    it('bold, italic, strike, code and pre', async () => {
      const r = await render('*bold* _italic_ ~gone~ `a *b* c` and ```x = *y*\n_z_```');
      expect(r.html).toContain('<b>bold</b>');
      expect(r.html).toContain('<i>italic</i>');
      expect(r.html).toContain('<s>gone</s>');
      expect(r.html).toContain('<code class="mk-code">a *b* c</code>');
      expect(r.html).toContain('<pre class="mk-pre">x = *y*\n_z_</pre>');
    });

    it('only formats at word edges, as Slack does', async () => {
      const r = await render('snake_case_name and 2*3*4 and a*b and *not closed');
      expect(r.html).not.toMatch(/<i>|<b>/);
      expect(r.text).toBe('snake_case_name and 2*3*4 and a*b and *not closed');
      expect((await render('(*in parens*), "_quoted_".')).html).toMatch(
        /\(<b>in parens<\/b>\), "<i>quoted<\/i>"\./,
      );
      expect((await render('*_both_*')).html).toBe('<b><i>both</i></b>');
    });

    it('quotes, lists and line breaks', async () => {
      const r = await render('intro\n> quoted *line*\n&gt; second\n• one\n- two\n1. three\nend');
      expect(r.html).toContain('<blockquote class="mk-quote">quoted <b>line</b><br>second</blockquote>');
      expect(r.html).toMatch(
        /<div class="mk-li mk-depth-0"><span class="mk-bullet">•<\/span><span>one<\/span><\/div>/,
      );
      expect(r.html).toContain('<span class="mk-bullet">1.</span><span>three</span>');
      expect(r.html.startsWith('intro')).toBe(true);
      expect(r.html.endsWith('end')).toBe(true);
    });

    it('links, mentions, channels, special mentions and dates', async () => {
      const r = await render(
        '<https://example.com/a?b=1&amp;c=2|the *docs*> <mailto:x@example.com> <@U0ALICE> <@U0ADMIN> <@U0NOBODY|ghost> <#C0SMSOPS> <#C0OTHER|other> <!here> <!date^1700000000^{date_short}|Nov 14, 2023> <!subteam^S1|@ops>',
      );
      expect(r.html).toContain(
        '<a class="mk-link" href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">the *docs*</a>',
      );
      expect(r.html).toContain('href="mailto:x@example.com"');
      expect(r.html).toContain('<span class="mk-mention" data-user="U0ALICE">@alice</span>');
      expect(r.html).toContain('<span class="mk-mention mk-me" data-user="U0ADMIN">@admin</span>');
      expect(r.text).toContain('@ghost');
      expect(r.html).toContain('<a class="mk-channel" href="#/C0SMSOPS">#sms-ops</a>');
      expect(r.text).toContain('#other');
      expect(r.html).toContain('<span class="mk-mention mk-broadcast">@here</span>');
      expect(r.text).toContain('Nov 14, 2023');
      expect(r.text).toContain('@ops');
      expect(r.scripts).toBe(0);
    });

    it('escapes everything: entities show as characters, markup never runs', async () => {
      const r = await render(
        '&lt;script&gt;alert(1)&lt;/script&gt; <javascript:alert(1)|click> <https://x.test|<img src=x onerror=alert(1)>> "q" \'a\' &amp;amp;',
      );
      expect(r.scripts).toBe(0);
      expect(r.text).toContain('<script>alert(1)</script>');
      expect(r.text).toContain('click');
      expect(r.html).not.toContain('javascript:');
      expect(r.text).toContain('"q" \'a\' &amp;');
      const blocks = await render([
        {
          type: 'header',
          text: { type: 'plain_text', text: '<img src=x onerror=alert(1)> :white_check_mark:' },
        },
        {
          type: 'section',
          text: { type: 'plain_text', text: '*not bold* <b>' },
          accessory: { type: 'image', image_url: 'javascript:alert(1)', alt_text: 'x' },
        },
        { type: 'image', image_url: 'https://example.com/a.png', alt_text: '"><script>' },
        {
          type: 'actions',
          elements: [
            { type: 'button', action_id: 'go', text: plain('Go " onclick="x'), url: 'javascript:x' },
          ],
        },
      ]);
      expect(blocks.scripts).toBe(0);
      expect(blocks.text).toContain('<img src=x onerror=alert(1)>');
      expect(blocks.html).toContain('aria-label=":white_check_mark:"');
      expect(blocks.text).toContain('*not bold* <b>');
      expect(blocks.html).not.toContain('javascript:');
      expect(blocks.html).toContain('alt="&quot;&gt;&lt;script&gt;"');
    });

    it('blocks: header, section with fields and accessory, context, divider, actions with styles and confirm', async () => {
      const r = await render([
        { type: 'header', text: plain('SMS batch 100042') },
        {
          type: 'section',
          fields: [
            { type: 'mrkdwn', text: '*Sender*\nSMSOPS' },
            { type: 'mrkdwn', text: '*Sent by*\n<@U0ALICE>' },
          ],
          accessory: { type: 'button', action_id: 'more', text: plain('More') },
        },
        { type: 'context', elements: [{ type: 'mrkdwn', text: ':test_tube: *Simulated*' }, plain('plain')] },
        { type: 'divider' },
        {
          type: 'actions',
          block_id: 'card_actions',
          elements: [
            { type: 'button', action_id: 'refresh', text: plain('Refresh'), style: 'primary' },
            {
              type: 'button',
              action_id: 'cancel',
              style: 'danger',
              text: plain('Cancel'),
              confirm: {
                title: plain('Sure?'),
                text: plain('Really'),
                confirm: plain('Yes'),
                deny: plain('No'),
              },
            },
            { type: 'static_select', action_id: 'pick', options: [{ text: plain('One'), value: '1' }] },
          ],
        },
        { type: 'video', title: plain('x') },
      ]);
      expect(r.html).toContain('<div class="bk-header">SMS batch 100042</div>');
      expect(r.html).toMatch(/<div class="bk-fields"><div class="bk-field"><b>Sender<\/b><br>SMSOPS<\/div>/);
      expect(r.text).toContain('@alice');
      expect(r.html).toMatch(/class="bk-accessory"><button type="button" class="bk-btn" data-action="more"/);
      expect(r.html).toContain('aria-label=":test_tube:"');
      expect(r.html).toContain('<hr class="bk-divider">');
      expect(r.html).toMatch(/class="bk-btn bk-btn-primary" data-block="card_actions" data-action="refresh"/);
      expect(r.html).toMatch(
        /class="bk-btn bk-btn-danger" data-block="card_actions" data-action="cancel" data-type="button" data-confirm="1"/,
      );
      expect(r.html).toMatch(/<select class="bk-select" data-block="card_actions" data-action="pick"/);
      expect(r.text).toContain('This block (video) is not shown here.');
    });
  },
);

function plain(text: string) {
  return { type: 'plain_text', text };
}
