import { describe, expect, it } from 'vitest';
import { SUBCOMMANDS, type SubcommandName } from '../../src/slack/commands/catalogue.js';
import type { SubcommandHandler, SubcommandHandlers } from '../../src/slack/commands/context.js';
import { SUBCOMMAND_HANDLERS } from '../../src/slack/commands/index.js';

const noop: SubcommandHandler = async () => undefined;

// These lines are checked by `npm run typecheck`: each @ts-expect-error fails the typecheck the day the
// error it expects disappears, so a catalogue and a handler map that drift apart cannot compile.

// @ts-expect-error a handler for a subcommand the catalogue does not have
export const handlerWithoutEntry = { teleport: noop } satisfies SubcommandHandlers;

// @ts-expect-error every catalogue entry needs its handler
export const entryWithoutHandler: Record<SubcommandName, SubcommandHandler> = { send: noop };

describe('the /sms catalogue and its handlers', () => {
  it('has exactly one handler per catalogue entry, at run time too', () => {
    expect(Object.keys(SUBCOMMAND_HANDLERS).sort()).toEqual(SUBCOMMANDS.map((s) => s.name).sort());
  });
});
