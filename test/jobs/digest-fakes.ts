import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DigestFraming, DigestPoster, DigestReport, LowBalanceAlert } from '../../src/digests/types.js';
import type {
  Balance,
  BalanceLogEntry,
  Gateway,
  MonthlyStats,
  Survey,
  SurveyAnswer,
} from '../../src/gateway/index.js';
import { openStore, type Store } from '../../src/store/index.js';

/** A gateway holding plain figures the test changes between calls; every other operation is refused. */
export class FakeGateway implements Gateway {
  balance: Balance = { main: 1000, limit: 0, usable: 1000 };
  log: BalanceLogEntry[] = [];
  stats: MonthlyStats[] = [];
  surveys: Survey[] = [];
  answers = new Map<number, SurveyAnswer[]>();
  calls: string[] = [];
  failing = new Set<string>();

  setUsable(main: number, limit = 0): void {
    this.balance = { main, limit, usable: main + limit };
  }

  #call<T>(name: string, value: T): Promise<T> {
    this.calls.push(name);
    if (this.failing.has(name)) return Promise.reject(new Error(`${name} failed (test)`));
    return Promise.resolve(structuredClone(value));
  }

  getBalance = () => this.#call('getBalance', this.balance);
  getBalanceLog = (range?: { begin?: Date; end?: Date }) =>
    this.#call(
      'getBalanceLog',
      this.log.filter(
        (e) =>
          (!range?.begin || (e.timestamp?.getTime() ?? 0) >= range.begin.getTime()) &&
          (!range?.end || (e.timestamp?.getTime() ?? 0) <= range.end.getTime()),
      ),
    );
  queryStats = () => this.#call('queryStats', this.stats);
  getSurveys = () => this.#call('getSurveys', this.surveys);
  getSurveyAnswers = (id: number) => this.#call('getSurveyAnswers', this.answers.get(id) ?? []);
  submit = () => Promise.reject(new Error('not in this test'));
  submitMulti = () => Promise.reject(new Error('not in this test'));
  queryMulti = () => Promise.reject(new Error('not in this test'));
  cancel = () => Promise.reject(new Error('not in this test'));
  receive = () => Promise.resolve([]);
  getSenders = () => Promise.resolve([]);
  close = () => Promise.resolve();
}

export interface Posted {
  channel: string;
  report?: DigestReport;
  alert?: LowBalanceAlert;
  framing: DigestFraming;
}

/** Records what would have gone to Slack; `failNext` makes the next posts throw, as Slack being down would. */
export class RecordingPoster implements DigestPoster {
  posts: Posted[] = [];
  failNext = 0;

  async postDigest(channel: string, report: DigestReport, framing: DigestFraming): Promise<void> {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('slack is down (test)');
    }
    this.posts.push({ channel, report, framing });
  }

  async postAlert(channel: string, alert: LowBalanceAlert, framing: DigestFraming): Promise<void> {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('slack is down (test)');
    }
    this.posts.push({ channel, alert, framing });
  }
}

export async function tempStore(): Promise<{ store: Store; path: string; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'smsops-digest-'));
  const path = join(dir, 'store.db');
  const store = await openStore(`sqlite:${path}`);
  return {
    store,
    path,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Twelve months up to and including (year, month). */
export function twelveMonths(year: number, month: number): MonthlyStats[] {
  return Array.from({ length: 12 }, (_, i) => {
    const index = year * 12 + (month - 1) - (11 - i);
    const count = 1000 + i * 100;
    return {
      year: Math.floor(index / 12),
      month: (index % 12) + 1,
      count,
      delivered: Math.round(count * 0.9),
      undelivered: Math.round(count * 0.05),
    };
  });
}
