import { describe, expect, it } from 'vitest';
import { SUBCOMMANDS, type SubcommandName } from '../../src/slack/commands/catalogue.js';
import type { SubcommandHandler, SubcommandHandlers } from '../../src/slack/commands/context.js';
import { SUBCOMMAND_HANDLERS } from '../../src/slack/commands/index.js';

const noop: SubcommandHandler = async () => undefined;

describe('the /sms catalogue and its handlers', () => {
  it('cannot drift apart: `npm run typecheck` refuses a handler without an entry and an entry without a handler', () => {
    // Each @ts-expect-error fails the typecheck the day the error it expects disappears.
    // @ts-expect-error a handler for a subcommand the catalogue does not have
    const handlerWithoutEntry = { teleport: noop } satisfies SubcommandHandlers;
    // @ts-expect-error every catalogue entry needs its handler
    const entryWithoutHandler: Record<SubcommandName, SubcommandHandler> = { send: noop };
    expect([handlerWithoutEntry, entryWithoutHandler]).toHaveLength(2);
  });

  it('has exactly one handler per catalogue entry, at run time too', () => {
    expect(Object.keys(SUBCOMMAND_HANDLERS).sort()).toEqual(SUBCOMMANDS.map((s) => s.name).sort());
  });
});
