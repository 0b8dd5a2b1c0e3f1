import type { Directory } from '../state/directory.js';

/**
 * What Slack does to what a person types before the app sees it: `&`, `<` and `>` become entities, and
 * `@name`, `#channel` and `@here` become Slack's mention syntax. Slash commands (with should_escape) keep the
 * name in the mention (`<@U123|alice>`); messages do not (`<@U123>`).
 */
export function slackEscape(text: string, directory: Directory, kind: 'command' | 'message'): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return escaped.replace(
    /(^|[\s(])([@#])([a-z0-9][a-z0-9._-]*)/gi,
    (whole, before: string, sigil: string, name: string) => {
      const lower = name.toLowerCase();
      if (sigil === '@') {
        if (lower === 'here' || lower === 'channel' || lower === 'everyone') return `${before}<!${lower}>`;
        const user = directory.users().find((u) => u.name.toLowerCase() === lower);
        if (!user) return whole;
        return kind === 'command' ? `${before}<@${user.id}|${user.name}>` : `${before}<@${user.id}>`;
      }
      const channel = directory.channels().find((c) => c.kind !== 'im' && c.name.toLowerCase() === lower);
      return channel ? `${before}<#${channel.id}|${channel.name}>` : whole;
    },
  );
}
