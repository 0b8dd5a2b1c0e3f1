import { describe, expect, it } from 'vitest';
import { buildStateValues } from '../../workspace/block-kit/state-values.js';
import type { ViewOutput } from '../../workspace/index.js';
// The local page's renderer: plain ES module functions, the same file the page loads.
import { renderBlock, zonedLocal, zonedSeconds } from '../../workspace/page/ui/render.js';

/**
 * Slack's datetimepicker shows and reads a date and time in the user's own zone and submits UNIX seconds
 * (`selected_date_time`); the workspace does the same, in tests and on the local page.
 */
describe('datetimepicker in the workspace', () => {
  const view = {
    id: 'V1',
    blocks: [
      {
        type: 'input',
        block_id: 'schedule_at',
        label: { type: 'plain_text', text: 'When' },
        element: { type: 'datetimepicker', action_id: 'schedule_at', initial_date_time: 1795510800 },
      },
    ],
  } as unknown as ViewOutput;

  it('submits UNIX seconds as a number, its initial value when left alone, null when empty', () => {
    expect(buildStateValues(view, { schedule_at: { schedule_at: '1795514400' } })).toEqual({
      schedule_at: { schedule_at: { type: 'datetimepicker', selected_date_time: 1795514400 } },
    });
    expect(buildStateValues(view).schedule_at?.schedule_at).toEqual({
      type: 'datetimepicker',
      selected_date_time: 1795510800,
    });
    expect(buildStateValues(view, { schedule_at: { schedule_at: '' } }).schedule_at?.schedule_at).toEqual({
      type: 'datetimepicker',
      selected_date_time: null,
    });
  });

  it('the page shows and reads the picked time in the user’s zone, summer time included', () => {
    // 2026-11-24T09:00:00Z
    expect(zonedLocal(1795510800, 'Europe/London')).toBe('2026-11-24T09:00');
    expect(zonedLocal(1795510800, 'Europe/Istanbul')).toBe('2026-11-24T12:00');
    expect(zonedSeconds('2026-11-24T12:00', 'Europe/Istanbul')).toBe('1795510800');
    expect(zonedSeconds('2026-11-24T04:00', 'America/New_York')).toBe('1795510800');
    // 1 July 2026, 10:00 in London is 09:00 UTC (BST).
    expect(zonedSeconds('2026-07-01T10:00', 'Europe/London')).toBe(
      String(Date.parse('2026-07-01T09:00:00Z') / 1000),
    );
    expect(zonedSeconds('', 'UTC')).toBe('');
    const html = renderBlock(view.blocks[0], {
      users: new Map([['U1', { tz: 'Europe/Paris' }]]),
      me: 'U1',
      valueOf: () => undefined,
    });
    expect(html).toContain('type="datetime-local"');
    expect(html).toContain('value="2026-11-24T10:00"');
  });
});
