/** Every /sms subcommand with its usage and an example: the single source of /sms help. */
export interface SubcommandInfo {
  name: string;
  usage: string;
  summary: string;
  example: string;
  /** Who may run it; look-ups are open to every member of the workspace with a role, help to everyone. */
  needs: 'anyone' | 'viewer' | 'sender' | 'admin';
  group: 'Send' | 'Look up' | 'Channel subscriptions' | 'Lists and templates' | 'Administration';
}

/**
 * `as const`: the names are a type, so a catalogue entry without a handler, or a handler without an entry,
 * fails the typecheck (see SubcommandHandlers in context.ts and SUBCOMMAND_HANDLERS in index.ts).
 */
export const SUBCOMMANDS = [
  {
    name: 'send',
    usage: 'send [numbers…] [text]',
    summary: 'open the compose modal, prefilled',
    example: '/sms send 0532 123 45 67 Your order is ready',
    needs: 'sender',
    group: 'Send',
  },
  {
    name: 'status',
    usage: 'status <MessageId | S-ref>',
    summary: 'delivery report of a batch, or a send without a MessageId by its card’s reference',
    example: '/sms status 100042',
    needs: 'viewer',
    group: 'Send',
  },
  {
    name: 'cancel',
    usage: 'cancel <MessageId>',
    summary: 'cancel what is not yet delivered (asks first)',
    example: '/sms cancel 100042',
    needs: 'sender',
    group: 'Send',
  },
  {
    name: 'scheduled',
    usage: 'scheduled',
    summary: 'sends scheduled for later, soonest first (each card has Send now, Edit and Cancel)',
    example: '/sms scheduled',
    needs: 'viewer',
    group: 'Send',
  },
  {
    name: 'report',
    usage:
      'report [this-month | last-month | YYYY-MM | YYYY-MM-DD YYYY-MM-DD] [csv] [counts] [inbound-details]',
    summary:
      'an .xlsx of the period’s sends (Sends, Summary, Inbound); counts only (viewers, or `counts`) is shared here, with texts and numbers (sender role) it goes to your DM with the app',
    example: '/sms report last-month',
    needs: 'viewer',
    group: 'Look up',
  },
  {
    name: 'balance',
    usage: 'balance',
    summary: 'credit: main, limit and usable',
    example: '/sms balance',
    needs: 'viewer',
    group: 'Look up',
  },
  {
    name: 'log',
    usage: 'log [days]',
    summary: 'balance log of the last days (default 7)',
    example: '/sms log 30',
    needs: 'viewer',
    group: 'Look up',
  },
  {
    name: 'senders',
    usage: 'senders',
    summary: 'sender names of the account',
    example: '/sms senders',
    needs: 'viewer',
    group: 'Look up',
  },
  {
    name: 'stats',
    usage: 'stats',
    summary: 'monthly sending statistics',
    example: '/sms stats',
    needs: 'viewer',
    group: 'Look up',
  },
  {
    name: 'surveys',
    usage: 'surveys',
    summary: 'surveys with their answer counts',
    example: '/sms surveys',
    needs: 'viewer',
    group: 'Look up',
  },
  {
    name: 'survey',
    usage: 'survey <id>',
    summary: 'answers of one survey',
    example: '/sms survey 7',
    needs: 'viewer',
    group: 'Look up',
  },
  {
    name: 'inbox',
    usage: 'inbox [n]',
    summary: 'the last n inbound SMS (default 10)',
    example: '/sms inbox 20',
    needs: 'viewer',
    group: 'Look up',
  },
  {
    name: 'subscribe',
    usage:
      'subscribe inbound [keyword K] [to RECIPIENT] | subscribe digest [balance|stats|surveys|all] [daily HH:MM | weekdays HH:MM | weekly DAY HH:MM | monthly D HH:MM | cron "EXPR"] | subscribe report [with-texts]',
    summary: 'this channel gets inbound SMS, digests on a schedule, or last month’s report on the 1st',
    example: '/sms subscribe digest all daily 09:00',
    needs: 'admin',
    group: 'Channel subscriptions',
  },
  {
    name: 'unsubscribe',
    usage: 'unsubscribe inbound | unsubscribe digest [balance|stats|surveys|all] | unsubscribe report',
    summary: 'stop what this channel gets',
    example: '/sms unsubscribe digest stats',
    needs: 'admin',
    group: 'Channel subscriptions',
  },
  {
    name: 'subscriptions',
    usage: 'subscriptions',
    summary: "this channel's subscriptions and their next run",
    example: '/sms subscriptions',
    needs: 'viewer',
    group: 'Channel subscriptions',
  },
  {
    name: 'digest',
    usage: 'digest [balance|stats|surveys|all]',
    summary: 'a digest now, as a preview',
    example: '/sms digest balance',
    needs: 'viewer',
    group: 'Channel subscriptions',
  },
  {
    name: 'alert',
    usage: 'alert balance below N | alert off',
    summary: 'warn this channel when usable credit drops below N',
    example: '/sms alert balance below 100',
    needs: 'admin',
    group: 'Channel subscriptions',
  },
  {
    name: 'optout',
    usage: 'optout add|remove|list [number]',
    summary: 'numbers that must not receive SMS',
    example: '/sms optout add 0532 123 45 67',
    needs: 'sender',
    group: 'Lists and templates',
  },
  {
    name: 'lists',
    usage: 'lists [add <name> <numbers…> | import <name> [append|replace] | show <name> | delete <name>]',
    summary: 'saved recipient lists',
    example: '/sms lists add drivers 05321234567 05331234567',
    needs: 'sender',
    group: 'Lists and templates',
  },
  {
    name: 'templates',
    usage: 'templates [add <name> <text> | show <name> | delete <name>]',
    summary: 'saved message templates',
    example: '/sms templates add ready Hello {{name}}, your order is ready',
    needs: 'sender',
    group: 'Lists and templates',
  },
  {
    name: 'grant',
    usage: 'grant @user sender|admin|viewer',
    summary: 'give someone a role',
    example: '/sms grant @alice sender',
    needs: 'admin',
    group: 'Administration',
  },
  {
    name: 'revoke',
    usage: 'revoke @user',
    summary: 'take a role away',
    example: '/sms revoke @alice',
    needs: 'admin',
    group: 'Administration',
  },
  {
    name: 'who',
    usage: 'who',
    summary: 'who has which role',
    example: '/sms who',
    needs: 'admin',
    group: 'Administration',
  },
  {
    name: 'audit',
    usage: 'audit [n]',
    summary: 'the last n audit entries (default 20)',
    example: '/sms audit 50',
    needs: 'admin',
    group: 'Administration',
  },
  {
    name: 'forget',
    usage: 'forget <number>',
    summary: 'erase a number from stored sends, threads and lists (KVKK, GDPR); its opt-out stays',
    example: '/sms forget 0532 123 45 67',
    needs: 'admin',
    group: 'Administration',
  },
  {
    name: 'workflows',
    usage: 'workflows [on|off|unattended on [daily cap]|unattended off]',
    summary:
      'allow or stop the Workflow Builder steps (Send an SMS, Get SMS balance); `unattended`, in the channel to see each send: steps nobody started',
    example: '/sms workflows on',
    needs: 'admin',
    group: 'Administration',
  },
  {
    name: 'help',
    usage: 'help',
    summary: 'this list',
    example: '/sms help',
    needs: 'anyone',
    group: 'Look up',
  },
] as const satisfies readonly SubcommandInfo[];

export type SubcommandName = (typeof SUBCOMMANDS)[number]['name'];

export const SUBCOMMAND_NAMES: readonly SubcommandName[] = SUBCOMMANDS.map((s) => s.name);

export function isSubcommandName(name: string): name is SubcommandName {
  return (SUBCOMMAND_NAMES as readonly string[]).includes(name);
}
