import type { DigestFraming, DigestReport } from '../../digests/types.js';
import { balanceDigestMessage } from './digest-balance.js';
import type { DigestMessage } from './digest-common.js';
import { statsDigestMessage } from './digest-stats.js';
import { surveysDigestMessage } from './digest-surveys.js';

export function digestMessage(report: DigestReport, framing: DigestFraming): DigestMessage {
  switch (report.kind) {
    case 'balance':
      return balanceDigestMessage(report, framing);
    case 'stats':
      return statsDigestMessage(report, framing);
    case 'surveys':
      return surveysDigestMessage(report, framing);
  }
}
