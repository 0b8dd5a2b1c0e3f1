/** One screen for someone who ran `npm start` without Slack credentials (before local mode exists). */
export const SETUP_HELP = `smsops needs a Slack app to talk to.

  1. Create the app from manifest.yml:
       https://api.slack.com/apps -> Create New App -> From an app manifest -> paste manifest.yml
  2. Install it to your workspace, then copy into .env (see .env.example):
       SLACK_BOT_TOKEN=xoxb-...        OAuth & Permissions -> Bot User OAuth Token
       SLACK_APP_TOKEN=xapp-...        Basic Information -> App-Level Tokens (scope connections:write)
                                       set it for Socket Mode (no public URL needed)
       SLACK_SIGNING_SECRET=...        Basic Information -> Signing Secret (HTTP mode)
       ADMIN_USER_IDS=U012AB3CD        your Slack member ID: only admins can grant the right to send
  3. Point it at your gateway, or leave SMS_GATEWAY_URL unset to use the built-in simulator:
       SMS_GATEWAY_URL=https://...  SMS_GATEWAY_USERNAME=...  SMS_GATEWAY_PASSWORD=...
  4. npm start

Every variable is described in .env.example and README.md.`;
