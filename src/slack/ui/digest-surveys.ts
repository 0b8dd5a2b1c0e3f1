import type { KnownBlock } from '@slack/types';
import type { DigestFraming, SurveyDigestEntry, SurveysDigest } from '../../digests/types.js';
import type { SurveyAnswer } from '../../gateway/index.js';
import { context, LIMITS, section } from './blocks.js';
import { type DigestMessage, digestFoot, digestHead, FRAME_BLOCKS } from './digest-common.js';
import { formatCount, formatTime, plural } from './format.js';
import { formatPercent, inlineText, listBlocks, textBar } from './lookup-common.js';

const BAR_CELLS = 10;
/** Answers shown per question; a free-text question shows its most frequent ones. */
const MAX_ANSWERS = 8;
/** Sections one survey's questions may take, so eight surveys fit in one message. */
const QUESTION_BLOCKS_PER_SURVEY = 3;

function surveyHeadBlock(e: SurveyDigestEntry): KnownBlock {
  const s = e.survey;
  const fresh = e.newAnswers === undefined ? '' : ` · *${plural(e.newAnswers, 'new answer')}*`;
  return section(`:ballot_box_with_ballot: *${inlineText(s.name, 150)}* · id \`${s.id}\`${fresh}`, {
    fields: [
      { type: 'mrkdwn', text: `*Subscribers*\n${formatCount(s.subscribers)}` },
      { type: 'mrkdwn', text: `*Delivered*\n${formatCount(s.delivered)}` },
      { type: 'mrkdwn', text: `*Answered*\n${formatCount(s.answered)}` },
      { type: 'mrkdwn', text: `*Answer rate*\n${formatPercent(s.answered, s.delivered)} of delivered` },
    ],
  });
}

/** A rating scale reads best in its own order (1..5); free answers by how often they were given. */
function ordered(answers: readonly SurveyAnswer[]): SurveyAnswer[] {
  const top = [...answers].sort((a, b) => b.count - a.count).slice(0, MAX_ANSWERS);
  const numeric = top.every((a) => /^\s*-?\d+(\.\d+)?\s*$/.test(a.answer));
  return numeric ? top.sort((a, b) => Number(a.answer) - Number(b.answer)) : top;
}

/** One question's distribution as bars scaled to its most frequent answer. */
export function questionChart(questionNo: number, answers: readonly SurveyAnswer[]): string {
  const total = answers.reduce((sum, a) => sum + a.count, 0);
  const shown = ordered(answers);
  const max = Math.max(0, ...shown.map((a) => a.count));
  const lines = shown.map(
    (a) =>
      `\`${textBar(a.count, max, BAR_CELLS).padEnd(BAR_CELLS, '░')}\` *${inlineText(a.answer || '(empty)', 60)}* — ${formatCount(a.count)} · ${formatPercent(a.count, total)}`,
  );
  const rest = answers.length - shown.length;
  if (rest > 0) lines.push(`_…and ${plural(rest, 'other answer')}_`);
  return [`*Question ${questionNo}* · ${plural(total, 'answer')}`, ...lines].join('\n');
}

function questionBlocks(answers: readonly SurveyAnswer[]): KnownBlock[] {
  if (answers.length === 0) return [];
  const groups = new Map<number, SurveyAnswer[]>();
  for (const a of answers) groups.set(a.questionNo, [...(groups.get(a.questionNo) ?? []), a]);
  const charts = [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([no, group]) => questionChart(no, group));
  return listBlocks(charts, {
    maxBlocks: QUESTION_BLOCKS_PER_SURVEY,
    separator: '\n\n',
    moreLabel: 'questions',
  });
}

export function surveysDigestMessage(d: SurveysDigest, framing: DigestFraming): DigestMessage {
  const tz = framing.timeZone;
  const blocks: KnownBlock[] = [...digestHead('Surveys digest', framing)];
  const scope = d.since
    ? `Surveys with new answers since the previous digest (${formatTime(d.since, tz)})`
    : `Every survey of the account (${plural(d.totalSurveys, 'survey')})`;
  blocks.push(context(scope));
  if (d.entries.length === 0) {
    const none =
      d.totalSurveys === 0 ? 'The account has no surveys.' : 'No new answers since the previous digest.';
    blocks.push(section(none), digestFoot(framing, d.at, 'surveys'));
    return { text: `Surveys digest: ${none}`, blocks };
  }
  // Each survey gets its counts, then its questions within what is left of the 50 blocks.
  const budget = LIMITS.blocksPerMessage - FRAME_BLOCKS - 3;
  for (const entry of d.entries) {
    const room = budget - blocks.length;
    if (room < 1) break;
    blocks.push(surveyHeadBlock(entry), ...questionBlocks(entry.answers).slice(0, Math.max(0, room - 1)));
  }
  const left = [
    d.omitted > 0 ? `…and ${plural(d.omitted, 'more survey')} with new answers` : '',
    d.since && d.unchanged > 0 ? `${plural(d.unchanged, 'survey')} without new answers not shown` : '',
  ].filter((t) => t !== '');
  if (left.length > 0) blocks.push(context(`${left.join(' · ')} · \`/sms surveys\` lists them all`));
  blocks.push(digestFoot(framing, d.at, 'surveys'));
  const names = d.entries.map(
    (e) => `${inlineText(e.survey.name, 60)}${e.newAnswers !== undefined ? ` (+${e.newAnswers})` : ''}`,
  );
  return { text: `Surveys digest: ${names.join(', ')}`, blocks };
}
