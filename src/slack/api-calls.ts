import type { FetchFunction } from '@slack/web-api';

/** Told of every HTTP request a Web API client makes (retries included), by method: the composition's metrics. */
export interface SlackApiObserver {
  onCall(method: string, status: number | 'error'): void;
}

/** Method names as Slack spells them (chat.postMessage, files.getUploadURLExternal): nothing else is a label. */
const METHOD = /^[a-z]+(\.[a-zA-Z]+)+$/;

/**
 * The Web API method a request URL names, or `upload` for the file bytes sent to the upload URL that
 * files.getUploadURLExternal handed out, or `other`: a closed set, so the label stays low-cardinality.
 */
export function webApiMethodOf(url: string, apiUrl: string): string {
  if (!url.startsWith(apiUrl)) return 'upload';
  const method = url.slice(apiUrl.length).split(/[?#]/)[0]!;
  return METHOD.test(method) ? method : 'other';
}

/**
 * The fetch every WebClient of the bot is given (WebClientOptions.fetch, which Bolt passes to each client it
 * makes, the listeners' included): it tells the observer each request's method and HTTP status, 429s
 * included, and changes nothing else.
 */
export function observedFetch(observer: SlackApiObserver, apiUrl = 'https://slack.com/api/'): FetchFunction {
  const base = apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`;
  return async (url, init) => {
    const method = webApiMethodOf(String(url), base);
    try {
      const response = await fetch(url, init as RequestInit);
      observer.onCall(method, response.status);
      return response;
    } catch (error) {
      observer.onCall(method, 'error');
      throw error;
    }
  };
}
