import { type createSlackDriver, SEEDED } from '../workspace/index.js';

const { users, channels } = SEEDED;

/** `/sms balance` by the seeded admin in #sms-ops, signed as Slack sends it: how long the ack took, in ms. */
export async function balanceAck(driver: ReturnType<typeof createSlackDriver>): Promise<number> {
  const ack = await driver.slashCommand({
    command: '/sms',
    text: 'balance',
    userId: users.admin,
    channelId: channels.smsOps,
  });
  if (ack.status !== 200) throw new Error(`/sms balance: HTTP ${ack.status}`);
  return ack.elapsedMs;
}
