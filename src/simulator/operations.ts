import { batchState, countRecipients, netCost } from './batch.js';
import { GatewayError } from './codes.js';
import { fromUnits } from './money.js';
import { parseRequest, type RequestSchemas } from './requests.js';
import type { SimulatorState } from './state.js';
import { formatGatewayTime } from './time.js';
import type { Batch, OperationName } from './types.js';

/** The members an operation puts in `Response` beside `Status`. */
export type Members = Record<string, unknown>;

export interface OperationContext {
  state: SimulatorState;
  schemas: RequestSchemas;
  body: Record<string, unknown>;
}

type Handler = (context: OperationContext) => Members;

export const handlers: Record<OperationName, Handler> = {
  Submit({ state, schemas, body }) {
    const req = parseRequest(schemas.Submit, body);
    const batch = state.submit({
      operation: 'Submit',
      sender: req.Header.From,
      dataCoding: req.DataCoding,
      validityMinutes: req.Header.ValidityPeriod,
      messages: req.To.map((to, i) => ({ to, text: req.Message, toWhere: `To[${i}]`, textWhere: 'Message' })),
    });
    return { MessageId: batch.id };
  },

  SubmitMulti({ state, schemas, body }) {
    const req = parseRequest(schemas.SubmitMulti, body);
    const batch = state.submit({
      operation: 'SubmitMulti',
      sender: req.Header.From,
      dataCoding: req.DataCoding,
      validityMinutes: req.Header.ValidityPeriod,
      messages: req.Envelopes.map((e, i) => ({
        to: e.To,
        text: e.Message,
        toWhere: `Envelopes[${i}].To`,
        textWhere: `Envelopes[${i}].Message`,
      })),
    });
    return { MessageId: batch.id };
  },

  QueryMulti({ state, schemas, body }) {
    const req = parseRequest(schemas.QueryMulti, body);
    // A MessageId picks one batch whatever the Range; 0 or absent lists the batches in the Range.
    const all = req.MessageId !== 0 ? [state.batch(req.MessageId)] : state.batches(req.Range);
    const paged =
      req.PageSize === null || req.PageSize === undefined
        ? all
        : all.slice((req.PageIndex ?? 0) * req.PageSize, ((req.PageIndex ?? 0) + 1) * req.PageSize);
    return { Report: { List: paged.map((b) => reportEntry(b, state.timeZone)), TotalCount: all.length } };
  },

  Cancel({ state, schemas, body }) {
    const req = parseRequest(schemas.Cancel, body);
    state.cancel(req.MessageId);
    return {};
  },

  Receive({ state, schemas, body }) {
    const req = parseRequest(schemas.Receive, body);
    if (req.State !== undefined && req.State !== '' && req.State.toLowerCase() !== 'all') {
      throw new GatewayError(
        'BadRequest',
        `Malformed request: State ${JSON.stringify(req.State)} is not supported: use All`,
      );
    }
    const messages = state.receive({ ...req.Range, recipient: req.Recipient });
    return {
      Message: {
        List: messages.map((m) => ({
          Id: m.id,
          Received: formatGatewayTime(m.received, state.timeZone),
          Network: m.network,
          MSISDN: m.msisdn,
          Recipient: m.recipient,
          Keyword: m.keyword,
          Text: m.text,
          Price: fromUnits(m.price),
          Xser: m.xser,
        })),
      },
    };
  },

  GetBalance({ state }) {
    const balance = state.balance();
    return { Balance: { Limit: fromUnits(balance.limit), Main: fromUnits(balance.main) } };
  },

  GetBalanceLog({ state, schemas, body }) {
    const req = parseRequest(schemas.GetBalanceLog, body);
    return {
      BalanceLogs: {
        List: state.balanceLog(req.DateRange).map((e) => ({
          Id: e.id,
          Timestamp: formatGatewayTime(e.timestamp, state.timeZone),
          Type: e.type,
          Balance: fromUnits(e.amount),
          CurrentBalance: fromUnits(e.balanceAfter),
          Explanation: e.explanation,
          Cost: e.cost === null ? null : fromUnits(e.cost),
        })),
      },
    };
  },

  GetSenders({ state }) {
    return { Senders: state.senders().map((s) => ({ Value: s.name, Default: s.isDefault })) };
  },

  QueryStats({ state }) {
    return {
      Report: {
        List: state.monthlyStats().map((m) => ({
          Year: m.year,
          Month: m.month,
          Delivered: m.delivered,
          Undelivered: m.undelivered,
          Count: m.count,
        })),
      },
    };
  },

  GetSurveys({ state }) {
    return {
      SurveyDetail: {
        List: state.surveys().map((s) => ({
          Id: s.id,
          Name: s.name,
          TotalQuestion: s.totalQuestions,
          Subscriber: s.subscribers,
          Answered: s.answered,
          Delivered: s.delivered,
          MessageId: s.messageId,
        })),
      },
    };
  },

  GetSurveyAnswers({ state, schemas, body }) {
    const req = parseRequest(schemas.GetSurveyAnswers, body);
    return {
      AnswerDetail: {
        List: state.surveyAnswers(req.SurveyId).map((a) => ({
          SurveyId: req.SurveyId,
          QuestionNo: a.questionNo,
          Answer: a.answer,
          Count: a.count,
        })),
      },
    };
  },
};

/**
 * Sent is the submission time: the simulator hands a batch to the operators at once, so there is
 * no separate queue hand-off moment to report.
 */
function reportEntry(batch: Batch, timeZone: string): Members {
  const counts = countRecipients(batch);
  return {
    Id: batch.id,
    Received: formatGatewayTime(batch.received, timeZone),
    Sent: formatGatewayTime(batch.received, timeZone),
    State: batchState(batch),
    Sender: batch.sender,
    Cost: fromUnits(netCost(batch)),
    Message: batch.recipients[0]?.text ?? '',
    Coding: batch.coding,
    DeliveredCount: counts.delivered,
    UndeliveredCount: counts.undelivered,
    Count: counts.count,
  };
}
