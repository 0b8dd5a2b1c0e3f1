/**
 * Slack escapes &, < and > in command text and turns what it recognises into <…> markup (with
 * should_escape: users, channels, special mentions, URLs, e-mail addresses): turn it back into what
 * was typed, since numbers and template texts are stored and sent as plain text. Anything else in
 * angle brackets cannot come from Slack's escaping and is left as it is.
 */
export function fromSlack(text: string): string {
  return text
    .replace(SLACK_MARKUP, (_whole, target: string, label: string | undefined) => {
      if (target.startsWith('@') || target.startsWith('#')) return label ? `${target[0]}${label}` : target;
      if (target.startsWith('!')) return label ?? `@${target.slice(1).split('^')[0]}`;
      return label ?? target.replace(/^(mailto|tel):/, '');
    })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const SLACK_MARKUP = /<([@#][A-Z0-9]+|![a-z][^|<>]*|(?:https?|mailto|tel|ftp):[^|<>]+)(?:\|([^<>]*))?>/g;
