import type { Gateway } from '../gateway/index.js';

/**
 * The gateway for one scheduler tick: each read is made once however many channels want it, so ten
 * channels with a 09:00 balance digest cost one GetBalance, not ten. Failures are shared too (and retried
 * on a later tick), and nothing outlives the tick, so no digest ever shows stale figures.
 */
export function memoGateway(gateway: Gateway): Gateway {
  const calls = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, call: () => Promise<T>): Promise<T> => {
    let pending = calls.get(key) as Promise<T> | undefined;
    if (!pending) {
      pending = call();
      calls.set(key, pending);
    }
    return pending;
  };
  return {
    submit: (request, options) => gateway.submit(request, options),
    submitMulti: (request, options) => gateway.submitMulti(request, options),
    queryMulti: (request, options) => gateway.queryMulti(request, options),
    cancel: (messageId, options) => gateway.cancel(messageId, options),
    receive: (request, options) => gateway.receive(request, options),
    getSenders: (options) => gateway.getSenders(options),
    close: (options) => gateway.close(options),
    getBalance: () => once('balance', () => gateway.getBalance()),
    getBalanceLog: (range) =>
      once(`log:${range?.begin?.toISOString()}:${range?.end?.toISOString()}`, () =>
        gateway.getBalanceLog(range),
      ),
    queryStats: () => once('stats', () => gateway.queryStats()),
    getSurveys: () => once('surveys', () => gateway.getSurveys()),
    getSurveyAnswers: (id) => once(`answers:${id}`, () => gateway.getSurveyAnswers(id)),
  };
}
