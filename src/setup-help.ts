/** Printed when `npm start` runs without Slack credentials: local mode, and how to leave it. */
export const LOCAL_MODE_NOTE =
  'No SLACK_BOT_TOKEN: starting in local mode, with a local workspace that stands in for Slack. ' +
  'To run in Slack, create the app from manifest.yml and set SLACK_BOT_TOKEN plus SLACK_APP_TOKEN ' +
  '(Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode): see .env.example and README.md.';
