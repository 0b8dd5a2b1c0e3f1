import type { SendingSettings, SlackSettings } from '../../src/slack/deps.js';

/** The settings every test bot runs with: the simulator, Turkish numbers, Istanbul time, default limits. */
export function testSettings(
  adminUserIds: readonly string[],
  sending: Partial<SendingSettings> = {},
): SlackSettings {
  return {
    adminUserIds,
    defaultCountry: 'TR',
    reportTimeZone: 'Europe/Istanbul',
    simulated: true,
    sending: {
      maxSegments: 6,
      maxRecipients: 10_000,
      confirmRecipients: 50,
      pricePerSegment: 0.05,
      defaultValidityMinutes: 1440,
      ...sending,
    },
  };
}
