import type { KnownBlock } from '@slack/types';
import type { Survey, SurveyAnswer } from '../../gateway/index.js';
import { context, fields, header, section, simulatedNotice } from './blocks.js';
import { formatCount, plural } from './format.js';
import {
  fitUnits,
  formatPercent,
  inlineText,
  LIST_BLOCK_BUDGET,
  type LookupMessage,
  type LookupView,
  textBar,
} from './lookup-common.js';

/** One section per survey, so the list stops well before Slack's 50 blocks. */
const MAX_SURVEYS = 40;
/** Free-text answers each get their own row; past this many a question shows its most frequent ones. */
const MAX_ANSWERS_PER_QUESTION = 15;
const BAR_CELLS = 10;
const MAX_QUESTIONS = LIST_BLOCK_BUDGET - 2;

function surveyBlock(s: Survey): KnownBlock {
  return section(`*${inlineText(s.name, 150)}* · id \`${s.id}\` · ${plural(s.totalQuestions, 'question')}`, {
    fields: [
      { type: 'mrkdwn', text: `*Subscribers*\n${formatCount(s.subscribers)}` },
      { type: 'mrkdwn', text: `*Delivered*\n${formatCount(s.delivered)}` },
      { type: 'mrkdwn', text: `*Answered*\n${formatCount(s.answered)}` },
      { type: 'mrkdwn', text: `*Answer rate*\n${formatPercent(s.answered, s.delivered)} of delivered` },
    ],
  });
}

export function surveysMessage(surveys: readonly Survey[], view: LookupView): LookupMessage {
  const head: KnownBlock[] = [...simulatedNotice(view.simulated), header('Surveys')];
  if (surveys.length === 0) {
    return { text: 'The account has no surveys.', blocks: [...head, section('The account has no surveys.')] };
  }
  const shown = [...surveys].sort((a, b) => b.id - a.id).slice(0, MAX_SURVEYS);
  const blocks: KnownBlock[] = [...head, ...shown.map(surveyBlock)];
  if (surveys.length > shown.length) {
    blocks.push(context(`…and ${formatCount(surveys.length - shown.length)} older surveys`));
  }
  blocks.push(
    context(`Answers of one survey: \`/sms survey &lt;id&gt;\`, e.g. \`/sms survey ${shown[0]!.id}\`.`),
  );
  const names = shown.slice(0, 10).map((s) => `${inlineText(s.name, 60)} (${s.id})`);
  const more = surveys.length > names.length ? `, …and ${surveys.length - names.length} more` : '';
  return { text: `${plural(surveys.length, 'survey')}: ${names.join(', ')}${more}`, blocks };
}

/** A rating scale reads best in its own order (1..5); free answers by how often they were given. */
function orderAnswers(answers: readonly SurveyAnswer[]): SurveyAnswer[] {
  const numeric = answers.every((a) => /^\s*-?\d+(\.\d+)?\s*$/.test(a.answer));
  return [...answers].sort((a, b) =>
    numeric ? Number(a.answer) - Number(b.answer) : b.count - a.count || a.answer.localeCompare(b.answer),
  );
}

function questionText(questionNo: number, answers: readonly SurveyAnswer[]): string {
  const total = answers.reduce((sum, a) => sum + a.count, 0);
  const max = Math.max(0, ...answers.map((a) => a.count));
  const top =
    answers.length > MAX_ANSWERS_PER_QUESTION
      ? [...answers].sort((a, b) => b.count - a.count).slice(0, MAX_ANSWERS_PER_QUESTION)
      : answers;
  const lines = orderAnswers(top).map(
    (a) =>
      `\`${textBar(a.count, max, BAR_CELLS).padEnd(BAR_CELLS, '░')}\` *${inlineText(a.answer || '(empty)', 80)}* — ${formatCount(a.count)} · ${formatPercent(a.count, total)}`,
  );
  const rest = answers.length - top.length;
  if (rest > 0) {
    const restCount = answers.filter((a) => !top.includes(a)).reduce((sum, a) => sum + a.count, 0);
    lines.push(`_…and ${formatCount(rest)} other answers (${plural(restCount, 'response')})_`);
  }
  return [`*Question ${questionNo}* · ${plural(total, 'answer')}`, ...lines].join('\n');
}

function byQuestion(answers: readonly SurveyAnswer[]): Map<number, SurveyAnswer[]> {
  const groups = new Map<number, SurveyAnswer[]>();
  for (const a of [...answers].sort((x, y) => x.questionNo - y.questionNo)) {
    const group = groups.get(a.questionNo) ?? [];
    group.push(a);
    groups.set(a.questionNo, group);
  }
  return groups;
}

/** `survey` is undefined when the gateway lists no survey with this id but still has answers for it. */
export function surveyAnswersMessage(
  id: number,
  survey: Survey | undefined,
  answers: readonly SurveyAnswer[],
  view: LookupView,
): LookupMessage {
  const name = survey ? inlineText(survey.name, 150) : 'name unknown';
  const blocks: KnownBlock[] = [...simulatedNotice(view.simulated), header(`Survey ${id}: answers`)];
  if (survey) {
    blocks.push(
      fields([
        ['Survey', name],
        ['Subscribers', formatCount(survey.subscribers)],
        ['Delivered', formatCount(survey.delivered)],
        [
          'Answered',
          `${formatCount(survey.answered)} (${formatPercent(survey.answered, survey.delivered)} of delivered)`,
        ],
      ]),
    );
  }
  if (answers.length === 0) {
    blocks.push(section('No answers yet.'));
    return { text: `Survey ${id} (${name}): no answers yet.`, blocks };
  }
  const groups = [...byQuestion(answers)];
  // A section per question keeps each question visibly apart; the budget keeps the message within 50 blocks.
  blocks.push(
    ...groups.slice(0, MAX_QUESTIONS).map(([no, group]) => section(fitUnits(questionText(no, group), 3000))),
  );
  if (groups.length > MAX_QUESTIONS)
    blocks.push(context(`…and ${formatCount(groups.length - MAX_QUESTIONS)} more questions`));
  blocks.push(
    context(
      'Bars are scaled to the most frequent answer of each question; shares are of that question’s answers.',
    ),
  );
  return { text: `Survey ${id} (${name}): answers to ${plural(groups.length, 'question')}`, blocks };
}
